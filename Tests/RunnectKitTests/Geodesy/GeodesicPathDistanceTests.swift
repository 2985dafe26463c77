import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

/// The distance from a point to a geodesic leg and to a path (near-me search's measure), held to
/// GeographicLib's own solver run as a separate process (`GeodSolve -E`, the elliptic-integral
/// algorithm) and to a brute force that samples every leg densely.
@Suite("Geodesy: distance from a point to a path of geodesic legs")
struct GeodesicPathDistanceTests {
    struct Case: CustomStringConvertible {
        var point: Coordinate
        var start: Coordinate
        var end: Coordinate
        var kind: String
        var description: String { "\(kind): \(point) to \(start)–\(end)" }
    }

    /// A point `meters` from `origin` along `azimuth` (GeographicLib's direct problem).
    static func offset(_ origin: Coordinate, _ azimuth: Double, _ meters: Double) -> Coordinate {
        Geodesic.destination(from: origin, azimuthDegrees: azimuth, distanceMeters: meters)!
    }

    /// Seeded legs and points: city legs of 5 m–3 km with points up to 8 km away (beside the leg,
    /// beyond its ends, on it), long legs of 100–3,000 km, legs near a pole and across the
    /// antimeridian.
    static func cases() -> [Case] {
        var random = SplitMix64(seed: 14)
        var cases: [Case] = []
        func add(
            _ kind: String, count: Int, latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>,
            legs: ClosedRange<Double>, away: ClosedRange<Double>
        ) {
            for _ in 0..<count {
                let start = Coordinate(
                    latitude: random.double(in: latitudes), longitude: random.double(in: longitudes))
                let end = offset(start, random.double(in: -180...180), random.double(in: legs))
                // Around a point along the leg (or past its ends), in any direction.
                let along = random.double(in: -0.3...1.3)
                let inverse = Geodesic.inverse(from: start, to: end)!
                let base = offset(start, inverse.initialAzimuthDegrees, along * inverse.distanceMeters)
                let point = offset(base, random.double(in: -180...180), random.double(in: away))
                cases.append(Case(point: point, start: start, end: end, kind: kind))
            }
        }
        add("Seoul", count: 300, latitudes: 37.4...37.7, longitudes: 126.8...127.2, legs: 5...3_000, away: 0...8_000)
        add(
            "Seoul, close", count: 100, latitudes: 37.4...37.7, longitudes: 126.8...127.2, legs: 50...1_000, away: 0...5
        )
        add("long legs", count: 60, latitudes: -60...60, longitudes: -180...180, legs: 1e5...3e6, away: 0...1e6)
        add(
            "near a pole", count: 40, latitudes: 88...89.9, longitudes: -180...180, legs: 100...50_000, away: 0...20_000
        )
        add(
            "antimeridian", count: 40, latitudes: -50...50, longitudes: 179.99...180, legs: 100...20_000,
            away: 0...20_000)
        // On the leg exactly (its ends), and a leg of no length.
        let a = Coordinate(latitude: 37.51, longitude: 127.06)
        let b = offset(a, 60, 800)
        cases.append(Case(point: a, start: a, end: b, kind: "at the start"))
        cases.append(Case(point: b, start: a, end: b, kind: "at the end"))
        cases.append(Case(point: offset(a, 10, 300), start: a, end: a, kind: "no length"))
        return cases
    }

    @Test(
        "the closest point is on the leg, at the distance given, where the geodesic to the point meets the leg at right angles (or at an end it leaves from): GeodSolve -E",
        .requires(GeodSolve.located != nil, GeodSolve.missingMessage))
    func closestPointMatchesGeodSolve() throws {
        let tool = try #require(GeodSolve.located)
        let cases = Self.cases()
        let results = cases.map { Geodesic.proximity(of: $0.point, toLegFrom: $0.start, to: $0.end)! }
        func line(_ a: Coordinate, _ b: Coordinate) -> String {
            [a.latitude, a.longitude, b.latitude, b.longitude].map(GeodSolve.plainDecimal).joined(separator: " ")
        }
        // Per case: point → closest, start → closest, closest → end, start → end, closest → point.
        var lines: [String] = []
        for (c, r) in zip(cases, results) {
            lines += [
                line(c.point, r.closest), line(c.start, r.closest), line(r.closest, c.end), line(c.start, c.end),
            ]
        }
        let rows = try tool.run(arguments: ["-E", "-i", "-p", "9"], lines: lines, fieldsPerLine: 3)
        var worstDistance = 0.0
        var worstOnLeg = 0.0
        var worstAngle = 0.0
        for (index, (c, r)) in zip(cases, results).enumerated() {
            let toPoint = rows[4 * index]
            let fromStart = rows[4 * index + 1]
            let toEnd = rows[4 * index + 2]
            let leg = rows[4 * index + 3]
            // The distance reported is that of the closest point reported...
            let distanceError = abs(toPoint[2] - r.distanceMeters)
            worstDistance = max(worstDistance, distanceError)
            #expect(distanceError <= 1e-6, "\(c): \(r.distanceMeters) vs \(toPoint[2])")
            // ...which lies on the leg (its two parts add up to the leg)...
            let onLeg = abs(fromStart[2] + toEnd[2] - leg[2])
            worstOnLeg = max(worstOnLeg, onLeg)
            #expect(onLeg <= 1e-5, "\(c): off the leg by \(onLeg) m")
            guard r.distanceMeters > 0.01, leg[2] > 0 else { continue }
            // ...where moving along the leg either way brings the point no closer: in the
            // interior the geodesic to the point leaves at right angles; at an end, at 90° or
            // more from the leg's direction into the leg.
            // (GeodSolve's azi2 is the direction of travel at the closest point; back towards
            // the point is the other way.)
            let toPointAzimuth = toPoint[1] + 180
            if fromStart[2] < 1e-4 {
                let intoLeg = leg[0]
                #expect(GeodSolve.angleDifference(toPointAzimuth, intoLeg) >= 90 - 1e-6, "\(c): start")
            } else if toEnd[2] < 1e-4 {
                let backIntoLeg = leg[1] + 180
                #expect(GeodSolve.angleDifference(toPointAzimuth, backIntoLeg) >= 90 - 1e-6, "\(c): end")
            } else {
                let legAzimuth = fromStart[1]
                let angle = abs(GeodSolve.angleDifference(toPointAzimuth, legAzimuth) - 90)
                worstAngle = max(worstAngle, angle)
                // Off square by `angle`, the true foot lies about angle × distance away: 1 mm.
                let slip = angle * .pi / 180 * r.distanceMeters
                #expect(slip <= 1e-3, "\(c): \(angle)° from square, \(slip) m")
            }
        }
        print(
            "point to leg vs GeodSolve -E, \(cases.count) cases: distance within \(worstDistance) m, "
                + "on the leg within \(worstOnLeg) m, square within \(worstAngle)°")
    }

    @Test("the distance to a leg is the minimum of a dense sampling of the leg, to 1 mm")
    func matchesDenseSampling() {
        var worst = 0.0
        for c in Self.cases() where c.kind.hasPrefix("Seoul") {
            let ours = Geodesic.proximity(of: c.point, toLegFrom: c.start, to: c.end)!.distanceMeters
            let brute = Self.sampledDistance(from: c.point, start: c.start, end: c.end)
            // Sampling can only overestimate; refined to under a millimetre.
            #expect(ours <= brute + 1e-6, "\(c): \(ours) > sampled \(brute)")
            #expect(brute - ours <= 1e-3, "\(c): \(ours) vs sampled \(brute)")
            worst = max(worst, abs(brute - ours))
        }
        print("point to leg vs dense sampling: within \(worst) m")
    }

    /// The smallest distance from `point` to 1,000 points spread along the leg, then to 1,000
    /// points between the best sample's neighbours, twice.
    static func sampledDistance(from point: Coordinate, start: Coordinate, end: Coordinate) -> Double {
        let leg = Geodesic.inverse(from: start, to: end)!
        var low = 0.0
        var high = leg.distanceMeters
        var best = Double.infinity
        for _ in 0..<3 {
            let step = (high - low) / 1_000
            var bestS = low
            for i in 0...1_000 {
                let s = low + Double(i) * step
                let d = Geodesic.distance(from: point, to: offset(start, leg.initialAzimuthDegrees, s))!
                if d < best {
                    best = d
                    bestS = s
                }
            }
            low = max(0, bestS - step)
            high = min(leg.distanceMeters, bestS + step)
        }
        return best
    }

    @Test("a path's distance is that of its closest leg; the cutoff only ever skips what lies beyond it")
    func pathDistance() throws {
        var random = SplitMix64(seed: 2024)
        for _ in 0..<200 {
            var path = [
                Coordinate(latitude: random.double(in: 37.45...37.65), longitude: random.double(in: 126.9...127.1))
            ]
            for _ in 0..<Int(random.double(in: 1...60)) {
                path.append(Self.offset(path.last!, random.double(in: -180...180), random.double(in: 5...700)))
            }
            let point = Coordinate(
                latitude: random.double(in: 37.4...37.7), longitude: random.double(in: 126.85...127.15))
            let legs = zip(path, path.dropFirst()).map {
                Geodesic.proximity(of: point, toLegFrom: $0, to: $1)!.distanceMeters
            }
            let expected = legs.min() ?? Geodesic.distance(from: point, to: path[0])!
            let exact = try #require(Geodesic.distance(from: point, toPath: path))
            #expect(abs(exact - expected) <= 1e-9, "\(exact) vs \(expected)")
            for cutoff in [expected * 0.5, expected, expected * 1.01 + 1, 0] {
                let cut = try #require(Geodesic.distance(from: point, toPath: path, cutoff: cutoff))
                if expected <= cutoff {
                    #expect(abs(cut - expected) <= 1e-9)
                } else {
                    #expect(cut > cutoff)
                }
            }
            // As segments of track points, split in two (no leg joins them).
            let points = path.map { TrackPoint(latitude: $0.latitude, longitude: $0.longitude) }
            let split = points.count / 2
            let segments = [Array(points[..<split]), Array(points[split...])]
            let separate = [Array(path[..<split]), Array(path[split...])].compactMap {
                $0.isEmpty ? nil : Geodesic.distance(from: point, toPath: $0)
            }
            #expect(Geodesic.distance(from: point, toSegments: segments) == separate.min())
        }
    }

    @Test("points without a position are left out; invalid input gives nil; an empty path is infinitely far")
    func edges() {
        let p = Coordinate(latitude: 37.5, longitude: 127)
        #expect(Geodesic.distance(from: p, toPath: []) == .infinity)
        #expect(Geodesic.distance(from: p, toSegments: [[]]) == .infinity)
        #expect(Geodesic.distance(from: Coordinate(latitude: 91, longitude: 0), toPath: [p]) == nil)
        #expect(Geodesic.distance(from: p, toPath: [Coordinate(latitude: .nan, longitude: 0)]) == nil)
        #expect(Geodesic.proximity(of: p, toLegFrom: p, to: Coordinate(latitude: 95, longitude: 0)) == nil)
        let a = TrackPoint(latitude: 37.5, longitude: 127.01)
        let b = TrackPoint(latitude: 37.5, longitude: 127.03)
        let gap = TrackPoint(latitude: .nan, longitude: .nan)
        #expect(
            Geodesic.distance(from: p, toSegments: [[a, gap, b]])
                == Geodesic.distance(from: p, toSegments: [[a, b]]))
    }
}
