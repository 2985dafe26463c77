/// Finds where a run passes within the match distance of a point, with reusable scratch space
/// (one finder per course evaluation, so a point costs no allocation).
///
/// A *pass* is a stretch of consecutive run legs that each come within the match distance in the
/// tangent plane. The plane never overstates a distance (see ``LocalTangentPlane``), so no place
/// the geodesic would accept is missed; whether a place is really within the match distance is
/// then decided by ``verified(_:from:)``, with a geodesic.
struct PassFinder {
    /// A place where the run comes within the match distance of a point.
    struct Candidate {
        /// Where on the run (see ``IndexedRun/Position``).
        var position: IndexedRun.Position
        /// Distance from the point, metres: in the plane as found, geodesic once verified.
        var meters: Double
    }

    /// Which places of a pass are candidates.
    enum Choice {
        /// The nearest place of each pass: a course's start and finish are timed there.
        case nearest
        /// The local minima of the distance along each pass (the first, the nearest and the last
        /// of them): a pass of the same road out and back has one on each way, so a point of the
        /// course can take the one its direction needs.
        case localMinima
    }

    /// A leg's place nearest the point: the fraction along the leg, and its squared plane distance.
    private struct Nearest {
        var fraction: Double
        var squared: Double
    }

    private let run: IndexedRun
    private let matchMeters: Double
    /// The legs of the pass being read, in run order, and the passes found for the current point.
    private var pass: [Nearest] = []
    private var found: [ClosedRange<Int>] = []

    init(run: IndexedRun, matchMeters: Double) {
        self.run = run
        self.matchMeters = matchMeters
    }

    /// Appends to `candidates` the places where the run passes within the match distance of the
    /// point in the plane, in run order, with their plane distances.
    ///
    /// The grid gives the legs near the point in no useful order; the first one within reach
    /// seeds a pass, which is read by walking the run both ways from it until a leg is out of
    /// reach. The grid's other legs of that pass are then skipped.
    mutating func candidates(near point: SIMD3<Double>, choice: Choice, into candidates: inout [Candidate]) {
        let run = self.run
        let q = run.frame.project(point)
        let reach = matchMeters * matchMeters
        let firstNew = candidates.count
        var found: [ClosedRange<Int>] = []
        var pass: [Nearest] = []
        swap(&found, &self.found)
        swap(&pass, &self.pass)
        defer {
            swap(&found, &self.found)
            swap(&pass, &self.pass)
        }
        found.removeAll(keepingCapacity: true)
        run.grid.legs(near: q, within: matchMeters) { leg in
            for range in found where range.contains(leg) { return }
            let seed = Self.nearest(on: leg, of: run, to: q)
            guard seed.squared <= reach else { return }
            var first = leg
            while first > 0, Self.nearest(on: first - 1, of: run, to: q).squared <= reach { first -= 1 }
            pass.removeAll(keepingCapacity: true)
            var last = first
            while last < run.legCount {
                let here = last == leg ? seed : Self.nearest(on: last, of: run, to: q)
                guard here.squared <= reach else { break }
                pass.append(here)
                last += 1
            }
            found.append(first...(last - 1))
            Self.choose(from: pass, firstLeg: first, choice: choice, into: &candidates)
        }
        // Passes come in the grid's order; put this point's candidates in run order.
        if found.count > 1 {
            var index = firstNew + 1
            while index < candidates.count {
                var back = index
                while back > firstNew && candidates[back - 1].position > candidates[back].position {
                    candidates.swapAt(back - 1, back)
                    back -= 1
                }
                index += 1
            }
        }
    }

    /// The candidate with its geodesic distance from `coordinate`, or `nil` when that is beyond
    /// the match distance.
    func verified(_ candidate: Candidate, from coordinate: Coordinate) -> Candidate? {
        guard let meters = Geodesic.distance(from: coordinate, to: run.coordinate(at: candidate.position)),
            meters <= matchMeters
        else { return nil }
        return Candidate(position: candidate.position, meters: meters)
    }

    @inline(__always)
    private static func nearest(on leg: Int, of run: IndexedRun, to q: SIMD2<Double>) -> Nearest {
        let a = run.plane[leg]
        let ab = run.legVectors[leg]
        let lengthSquared = run.legSquares[leg]
        var t = min(max(((q - a) * ab).sum() * run.legInverseSquares[leg], 0), 1)
        // Within a millimetre of a run point is at the point, exactly: two course points nearest
        // the same corner then get the same position, not positions a rounding apart in the
        // wrong order.
        if t * t * lengthSquared < 1e-6 {
            t = 0
        } else if (1 - t) * (1 - t) * lengthSquared < 1e-6 {
            t = 1
        }
        let offset = q - (a + ab * t)
        return Nearest(fraction: t, squared: (offset * offset).sum())
    }

    /// The candidates of a pass whose first leg is `firstLeg`.
    private static func choose(
        from pass: [Nearest], firstLeg: Int, choice: Choice, into candidates: inout [Candidate]
    ) {
        var nearest = 0
        for index in pass.indices where pass[index].squared < pass[nearest].squared { nearest = index }
        var first = nearest
        var last = nearest
        if choice == .localMinima {
            var previous = Double.infinity
            for index in pass.indices {
                let here = pass[index].squared
                let following = index + 1 < pass.count ? pass[index + 1].squared : .infinity
                if here <= previous && here < following {
                    first = min(first, index)
                    last = max(last, index)
                }
                previous = here
            }
        }
        var lastPosition = -1.0
        func add(_ index: Int) {
            let position = Double(firstLeg + index) + pass[index].fraction
            // A corner is the end of one leg and the start of the next: one place.
            guard position != lastPosition else { return }
            lastPosition = position
            candidates.append(Candidate(position: position, meters: pass[index].squared.squareRoot()))
        }
        add(first)
        add(nearest)
        add(last)
    }
}
