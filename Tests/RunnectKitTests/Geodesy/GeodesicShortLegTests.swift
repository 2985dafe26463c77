import CGeographicLib
import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

/// The short-leg formula the path sums use (see `rk_geod_path_legs`), held to GeographicLib's
/// inverse on ten million seeded random legs per class: the bound the README states.
@Suite("Geodesy: short legs by the mid-latitude formula, against GeographicLib")
struct GeodesicShortLegTests {
    /// The largest difference allowed between the formula and GeographicLib, metres.
    static let bound = 1e-8

    struct LegClass: CustomTestStringConvertible, Sendable {
        var name: String
        var lengths: ClosedRange<Double>
        var absoluteLatitudes: ClosedRange<Double> = 0...90
        var longitudeCentre = 0.0
        var longitudeSpread = 180.0
        /// Whether the formula must take every leg of the class (short legs off the poles).
        var takesAll = false
        var testDescription: String { name }
    }

    static let classes: [LegClass] = [
        LegClass(name: "0–1 m, every latitude", lengths: 0...1),
        LegClass(name: "1–10 m, every latitude", lengths: 1...10),
        LegClass(name: "10–100 m, every latitude", lengths: 10...100),
        LegClass(name: "100 m–1 km, every latitude", lengths: 100...1_000),
        LegClass(name: "0–100 m within 1° of a pole", lengths: 0...100, absoluteLatitudes: 89...90),
        LegClass(
            name: "0–100 m across the antimeridian", lengths: 0...100, longitudeCentre: 180,
            longitudeSpread: 0.001),
        LegClass(
            name: "0–10 m off the poles (|lat| ≤ 80°)", lengths: 0...10, absoluteLatitudes: 0...80, takesAll: true),
    ]

    @Test("10 million legs: the formula agrees with GeographicLib to 10 nm wherever it is used", arguments: classes)
    func agreesWithGeographicLib(_ legClass: LegClass) {
        var maxError = 0.0
        var taken = 0
        let count = 10_000_000
        let status = rk_geod_check_short_legs(
            UInt64(legClass.name.utf8.count) &* 7919, count, legClass.lengths.lowerBound, legClass.lengths.upperBound,
            legClass.absoluteLatitudes.lowerBound, legClass.absoluteLatitudes.upperBound, legClass.longitudeCentre,
            legClass.longitudeSpread, &maxError, &taken)
        #expect(status == 0)
        print(
            "short legs, \(legClass.name): \(taken) of \(count) by the formula, largest difference "
                + String(format: "%.2e m", maxError))
        #expect(maxError <= Self.bound, "\(legClass.name): \(maxError) m")
        if legClass.takesAll { #expect(taken == count) }
        if legClass.lengths.lowerBound >= 100 { #expect(taken == 0, "no leg over 99.3 m is short") }
    }

    @Test("the formula's range: 99 m at the equator, 62 m at 60°, none at the pole or for bad latitudes")
    func range() {
        func taken(_ latitude: Double, _ meters: Double) -> Bool {
            var s12 = 0.0
            let dLat = meters / 6_378_137 * 180 / .pi
            return rk_geod_short_leg(latitude - dLat / 2, 10, latitude + dLat / 2, 10, &s12) == 0
        }
        #expect(taken(0, 99) && !taken(0, 100))
        #expect(taken(60, 61) && !taken(60, 63))
        #expect(!taken(89.9999, 1))
        var s12 = 0.0
        #expect(rk_geod_short_leg(91, 0, 91, 0.0001, &s12) == -1)
        #expect(rk_geod_short_leg(.nan, 0, 1, 0, &s12) == -1)
        // Across the antimeridian, the short way round.
        #expect(rk_geod_short_leg(0, 179.99995, 0, -179.99995, &s12) == 0)
        #expect(
            abs(
                s12 - Geodesic.distance(
                    from: .init(latitude: 0, longitude: 179.99995), to: .init(latitude: 0, longitude: -179.99995))!)
                < 1e-9)
    }
}

/// The path sums with the short-leg formula against GeographicLib for every leg, on every file of
/// the corpus: far inside the millimetre the reference figures are given to.
@Suite("Geodesy: corpus distances with short legs, against GeographicLib's sums")
struct GeodesicShortLegCorpusTests {
    @Test("every corpus file's path sums agree with GeographicLib's within 10 µm", .sharedCorpus)
    func corpusSums() throws {
        var worst = (file: "", difference: 0.0, legs: 0)
        for file in SharedCorpus.reference.keys.sorted() {
            guard let activity = try? ActivityReader.read(path: SharedCorpus.url(file).path) else { continue }
            for all in activity.courseSegments {
                let segment = all.filter { $0.latitude.isFinite && $0.longitude.isFinite && abs($0.latitude) <= 90 }
                guard segment.count > 1 else { continue }
                let (fast, exact) = segment.withUnsafeBufferPointer { points -> (Double, Double) in
                    let fast = Geodesic.legLengths(of: points, latitude: \.latitude, longitude: \.longitude, into: nil)
                    let raw = UnsafeRawPointer(points.baseAddress!)
                    let exact = rk_geod_path_legs_exact(
                        raw.advanced(by: MemoryLayout<TrackPoint>.offset(of: \.latitude)!)
                            .assumingMemoryBound(to: Double.self),
                        raw.advanced(by: MemoryLayout<TrackPoint>.offset(of: \.longitude)!)
                            .assumingMemoryBound(to: Double.self),
                        MemoryLayout<TrackPoint>.stride, points.count, nil)
                    return (fast, exact)
                }
                #expect(abs(fast - exact) <= 1e-5, "\(file): \(fast) vs \(exact)")
                if abs(fast - exact) > worst.difference { worst = (file, abs(fast - exact), segment.count - 1) }
            }
        }
        print("short legs on the corpus: largest difference \(worst.difference) m (\(worst.file), \(worst.legs) legs)")
    }
}
