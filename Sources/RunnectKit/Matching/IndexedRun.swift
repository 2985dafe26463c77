import Foundation

/// A run prepared for matching: its positioned points in time order as one polyline, their
/// distances along it, their times, and a spatial hash of its legs.
///
/// A place on the run is a ``Position``: a leg and a fraction along it. Positions compare in run
/// order, which is time order.
struct IndexedRun: Sendable {
    /// A place on the run: `leg + fraction`, the leg from point `leg` to point `leg + 1`.
    typealias Position = Double

    /// Positions, degrees, and their Earth-centred and tangent-plane forms.
    let coordinates: [Coordinate]
    let earthCentred: [SIMD3<Double>]
    let plane: [SIMD2<Double>]
    let frame: LocalTangentPlane
    /// Geodesic distance along the run from its first positioned point, metres.
    let cumulativeMeters: [Double]
    /// Seconds since the reference date on the forward-only timeline (``TimeOrder``); NaN where
    /// the point has no time.
    let seconds: [Double]
    /// For each point, the index of the last timed point at or before it, and of the first at or
    /// after it (−1 where there is none).
    private let timedAtOrBefore: [Int32]
    private let timedAtOrAfter: [Int32]
    /// Per leg, in the plane: from its first point to its second, the square of its length, and
    /// the reciprocal of that (0 for a leg of no length).
    let legVectors: [SIMD2<Double>]
    let legSquares: [Double]
    let legInverseSquares: [Double]
    /// Legs by tangent-plane cell.
    let grid: LegGrid

    /// Whether any point has a time.
    var isTimed: Bool { timedAtOrBefore.last.map { $0 >= 0 } ?? false }

    /// Number of legs (one fewer than points; 0 for fewer than two points).
    var legCount: Int { max(coordinates.count - 1, 0) }

    /// Joins `segments` in order (the hop between two segments is a leg like any other: where the
    /// runner went while the recording paused), leaving out points without a position.
    /// `deviceTotals` bound a step forward in time as they do for the stats (see ``TimeOrder``).
    init(segments: [[TrackPoint]], deviceTotals: DeviceTotals? = nil, cellMeters: Double) {
        let forward = TimeOrder(segments: segments, deviceTotals: deviceTotals).forwardSegments(segments)
        var points: [TrackPoint] = []
        points.reserveCapacity(forward.reduce(0) { $0 + $1.count })
        for segment in forward {
            for point in segment where SegmentMeasurement.hasPosition(point) { points.append(point) }
        }
        coordinates = points.map(\.coordinate)
        seconds = points.map { $0.time?.timeIntervalSinceReferenceDate ?? .nan }

        var legs = [Double](repeating: 0, count: max(points.count - 1, 0))
        legs.withUnsafeMutableBufferPointer { legs in
            _ = points.withUnsafeBufferPointer {
                Geodesic.legLengths(of: $0, latitude: \.latitude, longitude: \.longitude, into: legs)
            }
        }
        var cumulative = [Double](repeating: 0, count: points.count)
        for index in legs.indices {
            cumulative[index + 1] = cumulative[index] + (legs[index].isNaN ? 0 : legs[index])
        }
        cumulativeMeters = cumulative

        var before = [Int32](repeating: -1, count: points.count)
        var after = [Int32](repeating: -1, count: points.count)
        var last: Int32 = -1
        for index in points.indices {
            if !seconds[index].isNaN { last = Int32(index) }
            before[index] = last
        }
        last = -1
        for index in points.indices.reversed() {
            if !seconds[index].isNaN { last = Int32(index) }
            after[index] = last
        }
        timedAtOrBefore = before
        timedAtOrAfter = after

        let earthCentred = points.map { LocalTangentPlane.earthCentred(latitude: $0.latitude, longitude: $0.longitude) }
        frame = LocalTangentPlane(
            reference: Self.centre(of: earthCentred) ?? coordinates.first ?? Coordinate(latitude: 0, longitude: 0))
        self.earthCentred = earthCentred
        let plane = earthCentred.map(frame.project)
        self.plane = plane
        let vectors = zip(plane, plane.dropFirst()).map { $1 - $0 }
        legVectors = vectors
        legSquares = vectors.map { ($0 * $0).sum() }
        legInverseSquares = legSquares.map { $0 > 0 ? 1 / $0 : 0 }
        grid = LegGrid(points: plane, cellMeters: cellMeters)
    }

    /// The point under the mean Earth-centred position: the middle of the run, wherever it lies
    /// (`nil` for no points, or points spread so widely that their mean is near the Earth's centre).
    private static func centre(of points: [SIMD3<Double>]) -> Coordinate? {
        guard !points.isEmpty else { return nil }
        let mean = points.reduce(SIMD3<Double>.zero, +) / Double(points.count)
        guard (mean * mean).sum() > 1e12 else { return nil }
        return LocalTangentPlane.coordinate(of: mean)
    }

    // MARK: - Positions

    /// Splits a position into its leg and the fraction along it.
    @inline(__always)
    func leg(of position: Position) -> (leg: Int, fraction: Double) {
        let leg = min(Int(position), max(legCount - 1, 0))
        return (leg, position - Double(leg))
    }

    /// The latitude and longitude at a position (on the leg's chord, brought to the surface).
    func coordinate(at position: Position) -> Coordinate {
        let (leg, fraction) = leg(of: position)
        guard legCount > 0, fraction > 0 else { return coordinates[leg] }
        guard fraction < 1 else { return coordinates[leg + 1] }
        let a = earthCentred[leg]
        return LocalTangentPlane.coordinate(of: a + (earthCentred[leg + 1] - a) * fraction)
    }

    /// Distance along the run from its first point to a position, metres.
    func meters(at position: Position) -> Double {
        let (leg, fraction) = leg(of: position)
        guard legCount > 0 else { return 0 }
        return cumulativeMeters[leg] + fraction * (cumulativeMeters[leg + 1] - cumulativeMeters[leg])
    }

    /// The time at a position, interpolated by distance between the timed points around it, as
    /// splits are timed (``SplitBuilder``); `nil` where no timed point lies on one side of it.
    func seconds(at position: Position) -> Double? {
        guard !coordinates.isEmpty else { return nil }
        let (leg, fraction) = leg(of: position)
        let before = Int(timedAtOrBefore[leg])
        let after = Int(timedAtOrAfter[fraction > 0 || legCount == 0 ? min(leg + 1, coordinates.count - 1) : leg])
        guard before >= 0, after >= 0 else { return nil }
        let span = cumulativeMeters[after] - cumulativeMeters[before]
        guard span > 0 else { return seconds[before] }
        let along = (meters(at: position) - cumulativeMeters[before]) / span
        return seconds[before] + along * (seconds[after] - seconds[before])
    }
}
