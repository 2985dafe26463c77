import Foundation
import RunnectKit

/// `runnect-bench export [POINTS] [--repeat N]`: SVG preview and GeoJSON write of one generated
/// course of POINTS points (default 100,000), best of N runs (default 5), and Douglas–Peucker on
/// ten times as many points.
///
/// The course: a marathon (about 42 km) recorded at about 0.4 m between fixes, a winding path
/// with seeded ±1.5 m GPS noise, elevations and 1 s times: many points, little shape, as the
/// preview of a long recording is.
func exportBench(_ arguments: [String]) throws {
    let count = arguments.first.flatMap { Int($0) } ?? 100_000
    let repeats = max(1, option("--repeat", in: arguments).flatMap { Int($0) } ?? 5)
    let activity = benchCourse(points: count, lengthMeters: 42_195, seed: 2026)

    func best(_ body: () throws -> Void) rethrows -> Double {
        var fastest = Double.infinity
        for _ in 0..<repeats {
            let start = now()
            try body()
            fastest = min(fastest, now() - start)
        }
        return fastest
    }

    for profile in [false, true] {
        var bytes = 0
        let seconds = try best {
            bytes = try SVGPreview(activity: activity, options: SVGPreviewOptions(includeProfile: profile)).svg.utf8
                .count
        }
        let work =
            "SVG preview 400x300\(profile ? " + profile" : "") of \(count) points: "
            + String(format: "%.1f ms", seconds * 1000) + ", \(bytes) bytes, best of \(repeats)"
        emit([
            ("tool", "runnect"), ("work", work), ("points", count), ("seconds", seconds),
            ("ms", seconds * 1000), ("bytes", bytes), ("points_per_s", Double(count) / seconds),
            ("peak_rss_mib", peakResidentMiB()),
        ])
        FileHandle.standardError.write(Data("runnect: \(work)\n".utf8))
    }

    for tolerance in [nil, 2.0] as [Double?] {
        var bytes = 0
        let seconds = try best {
            bytes = try GeoJSONWriter.document(
                for: activity, properties: ["title": "bench"],
                options: GeoJSONOptions(simplifyToleranceMeters: tolerance)
            ).count
        }
        let what = tolerance.map { "--simplify \(Int($0)) m" } ?? "every point, with elevation"
        let work =
            "GeoJSON write of \(count) points (\(what)): " + String(format: "%.1f ms", seconds * 1000)
            + ", \(bytes) bytes out, best of \(repeats)"
        emit([
            ("tool", "runnect"), ("work", work), ("points", count), ("seconds", seconds), ("bytes", bytes),
            ("mb_per_s", Double(bytes) / 1e6 / seconds), ("points_per_s", Double(count) / seconds),
            ("peak_rss_mib", peakResidentMiB()),
        ])
        FileHandle.standardError.write(Data("runnect: \(work)\n".utf8))
    }

    let big = benchCourse(points: count * 10, lengthMeters: 422_000, seed: 7).courseSegments[0]
    var kept = 0
    let seconds = best { kept = Simplifier.keptIndices(of: big, toleranceMeters: 2).count }
    let work =
        "Douglas–Peucker (sphere, 2 m) of \(big.count) points: " + String(format: "%.1f ms", seconds * 1000)
        + ", \(kept) kept, best of \(repeats)"
    emit([
        ("tool", "runnect"), ("work", work), ("points", big.count), ("seconds", seconds), ("kept", kept),
        ("points_per_s", Double(big.count) / seconds), ("peak_rss_mib", peakResidentMiB()),
    ])
    FileHandle.standardError.write(Data("runnect: \(work)\n".utf8))
}

/// A winding course of `points` fixes over about `lengthMeters`, with seeded noise.
func benchCourse(points count: Int, lengthMeters: Double, seed: UInt64) -> Activity {
    var state = seed
    func unit() -> Double {  // SplitMix64, in [0, 1)
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) * 0x1p-53
    }
    let step = lengthMeters / Double(max(count - 1, 1))
    let metersPerDegree = 111_320.0
    var lat = 37.51
    var lon = 127.06
    var heading = 0.0
    var elevation = 20.0
    let start = Date(timeIntervalSince1970: 1_746_000_000)
    var points: [TrackPoint] = []
    points.reserveCapacity(count)
    for i in 0..<count {
        let noiseLat = (unit() - 0.5) * 3 / metersPerDegree
        let noiseLon = (unit() - 0.5) * 3 / (metersPerDegree * cos(lat * .pi / 180))
        points.append(
            TrackPoint(
                latitude: lat + noiseLat, longitude: lon + noiseLon, elevationMeters: elevation,
                time: start.addingTimeInterval(Double(i))))
        heading += (unit() - 0.5) * 0.02 + 0.0004 * sin(Double(i) / 5000)
        lat += step * cos(heading) / metersPerDegree
        lon += step * sin(heading) / (metersPerDegree * cos(lat * .pi / 180))
        elevation = max(0, elevation + (unit() - 0.5) * 0.2)
    }
    return Activity(format: .gpx11, tracks: [Track(segments: [TrackSegment(points: points)])])
}
