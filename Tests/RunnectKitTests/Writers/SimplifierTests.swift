import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

@Suite("Douglas–Peucker simplifier")
struct SimplifierTests {
    @Test("keeps the ends, drops points within the tolerance, keeps those beyond")
    func tolerance() {
        // Along the equator, 0.001° ≈ 111.2 m; a bump of 0.00005° ≈ 5.6 m north.
        let points = [(0.0, 0.0), (0.00001, 0.001), (0.00005, 0.002), (0.0, 0.003)]
            .map { TrackPoint(latitude: $0.0, longitude: $0.1) }
        #expect(Simplifier.keptIndices(of: points, toleranceMeters: 10) == [0, 3])
        #expect(Simplifier.keptIndices(of: points, toleranceMeters: 5) == [0, 2, 3])
        #expect(Simplifier.keptIndices(of: points, toleranceMeters: 0) == [0, 1, 2, 3])
    }

    @Test("a million points simplify without recursion")
    func millionPoints() {
        var points: [TrackPoint] = []
        points.reserveCapacity(1_000_000)
        for i in 0..<1_000_000 {
            let t = Double(i) * 1e-5
            points.append(TrackPoint(latitude: 37.5 + 0.01 * sin(t * 50), longitude: 127 + t * 0.01))
        }
        let kept = Simplifier.keptIndices(of: points, toleranceMeters: 1)
        #expect(kept.first == 0 && kept.last == 999_999)
        #expect(kept.count < 20_000)
    }
}

@Suite("Douglas–Peucker against independent references")
struct SimplifierReferenceTests {
    /// Distance from `point` to the WGS84 geodesic `a`–`b` (GeographicLib), by sampling the
    /// geodesic every ~0.5 m: an independent measure of what the simplifier measures on the sphere.
    static func distanceToGeodesic(_ point: Coordinate, _ a: Coordinate, _ b: Coordinate) -> Double {
        let inverse = Geodesic.inverse(from: a, to: b)!
        let steps = max(Int(inverse.distanceMeters / 0.5), 1)
        var best = Double.infinity
        for k in 0...steps {
            let along = inverse.distanceMeters * Double(k) / Double(steps)
            let sample = Geodesic.destination(
                from: a, azimuthDegrees: inverse.initialAzimuthDegrees, distanceMeters: along)!
            best = min(best, Geodesic.distance(from: point, to: sample)!)
        }
        return best
    }

    @Test(
        "every dropped point lies within the tolerance of the geodesic between its kept neighbours",
        arguments: [(37.5, 127.0), (-33.9, 151.2), (64.1, -21.9), (-16.8, 179.999)])
    func droppedPointsWithinTolerance(lat: Double, lon: Double) throws {
        var rng = SplitMix64(seed: UInt64(bitPattern: Int64(lat * 1000)))
        var points: [TrackPoint] = []
        var la = lat
        var lo = lon
        var heading = rng.double(in: 0...(2 * .pi))
        for _ in 0..<400 {
            points.append(TrackPoint(latitude: la, longitude: lo > 180 ? lo - 360 : lo))
            heading += rng.double(in: -0.4...0.4)
            la += 0.00004 * cos(heading)  // ~4.5 m steps
            lo += 0.00004 * sin(heading) / cos(la * .pi / 180)
        }
        for tolerance in [1.0, 5.0, 20.0] {
            let kept = Simplifier.keptIndices(of: points, toleranceMeters: tolerance)
            #expect(kept.first == 0 && kept.last == points.count - 1)
            #expect(kept.count < points.count)
            var worst = 0.0
            for (a, b) in zip(kept, kept.dropFirst()) where b - a > 1 {
                for i in (a + 1)..<b {
                    worst = max(
                        worst, Self.distanceToGeodesic(points[i].coordinate, points[a].coordinate, points[b].coordinate)
                    )
                }
            }
            // The sphere differs from the ellipsoid by under 0.5 %; sampling adds up to 0.25 m.
            #expect(worst <= tolerance * 1.005 + 0.25, "tolerance \(tolerance) m: a dropped point lies \(worst) m off")
        }
    }

    /// Textbook recursive Douglas–Peucker in the plane.
    static func recursive(_ x: [Double], _ y: [Double], _ tolerance: Double) -> [Int] {
        var keep = Set([0, x.count - 1])
        func run(_ first: Int, _ last: Int) {
            guard last - first > 1 else { return }
            var best = -1.0
            var index = first
            for i in (first + 1)..<last {
                let dx = x[last] - x[first]
                let dy = y[last] - y[first]
                let length2 = dx * dx + dy * dy
                let t = length2 == 0 ? 0 : min(max(((x[i] - x[first]) * dx + (y[i] - y[first]) * dy) / length2, 0), 1)
                let d = hypot(x[i] - x[first] - t * dx, y[i] - y[first] - t * dy)
                if d > best {
                    best = d
                    index = i
                }
            }
            if best > tolerance {
                keep.insert(index)
                run(first, index)
                run(index, last)
            }
        }
        run(0, x.count - 1)
        return keep.sorted()
    }

    @Test("the planar simplifier keeps what the textbook recursion keeps")
    func planarMatchesRecursion() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<200 {
            let count = rng.int(in: 3...300)
            var x: [Double] = []
            var y: [Double] = []
            var px = 0.0
            var py = 0.0
            for _ in 0..<count {
                px += rng.double(in: -3...3)
                py += rng.double(in: -3...3)
                x.append(px)
                y.append(py)
            }
            let tolerance = rng.double(in: 0.1...5)
            #expect(Simplifier.keptIndices(x: x, y: y, tolerance: tolerance) == Self.recursive(x, y, tolerance))
        }
    }

    @Test("a loop back to its start keeps the far side")
    func loop() {
        let points = (0...100).map { k -> TrackPoint in
            let angle = Double(k) / 100 * 2 * .pi
            return TrackPoint(latitude: 37.5 + 0.002 * sin(angle), longitude: 127 + 0.0025 * (1 - cos(angle)))
        }
        let kept = Simplifier.keptIndices(of: points, toleranceMeters: 10)
        #expect(kept.first == 0 && kept.last == 100)
        #expect(kept.count >= 8 && kept.count < 40)
    }
}

@Suite("Bounds of boxes")
struct BoundsUnionTests {
    @Test("the union is the narrowest box holding every box, across the antimeridian too")
    func narrowest() throws {
        var rng = SplitMix64(seed: 5_2)
        for _ in 0..<500 {
            let boxes = (0..<rng.int(in: 1...6)).map { _ -> Bounds in
                let west = rng.double(in: -180...180)
                var east = west + rng.double(in: 0...(rng.chance(1, in: 5) ? 200 : 20))
                if east > 180 { east -= 360 }
                let south = rng.double(in: -80...70)
                return Bounds(
                    minLatitude: south, minLongitude: west, maxLatitude: south + rng.double(in: 0...10),
                    maxLongitude: east)
            }
            let union = try #require(Bounds(enclosing: boxes))
            func width(_ box: Bounds) -> Double {
                let w = box.maxLongitude - box.minLongitude
                return w < 0 ? w + 360 : w
            }
            func offset(_ longitude: Double, from west: Double) -> Double {
                let d = (longitude - west).truncatingRemainder(dividingBy: 360)
                return d < 0 ? d + 360 : d
            }
            // Brute force: start at each box's western edge, reach east far enough for every box.
            let best = boxes.map { candidate in
                boxes.map { box in offset(box.minLongitude, from: candidate.minLongitude) + width(box) }.max()!
            }.min()!
            #expect(abs(width(union) - min(best, 360)) < 1e-9, "\(boxes) -> \(union)")
            for box in boxes {
                #expect(offset(box.minLongitude, from: union.minLongitude) + width(box) <= width(union) + 1e-9)
                #expect(box.minLatitude >= union.minLatitude && box.maxLatitude <= union.maxLatitude)
            }
        }
    }
}
