// runnect-bench: throughput and peak memory of Runnect's hot paths, for scripts/bench.sh.
//
//   runnect-bench gpx FILE [--repeat N]   parse + full stats (splits included), best of N runs
//   runnect-bench geodesic N              N geodesic legs through the batch path call
//   runnect-bench fit FILE [--repeat N]   FIT decode into an Activity (and with stats), best of N
//   runnect-bench search [COURSES] [--commit N] [--jobs N] [--optimize]
//                                         store of generated courses, keyword search latency
//   runnect-bench import [FILES] [--points N] [--jobs N]
//                                         bulk import of generated GPX files into a store
//   runnect-bench index [COURSES] [--shared]
//                                         discovery-index export of a generated store (one core)
//   runnect-bench export [POINTS] [--repeat N]
//                                         SVG preview and GeoJSON write of one course, best of N
//
// Prints one JSON object per line (so the script can tabulate it) and a human line on stderr.
// Build with -c release: debug builds are 10–50x slower and say nothing about the product.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import RunnectKit

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func peakResidentMiB() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024  // KiB on Linux
}

func emit(_ fields: [(String, Any)]) {
    let body = fields.map { key, value -> String in
        switch value {
        case let text as String: return "\"\(key)\":\"\(text)\""
        case let number as Double: return "\"\(key)\":\(String(format: "%.3f", number))"
        default: return "\"\(key)\":\(value)"
        }
    }
    print("{" + body.joined(separator: ",") + "}")
}

/// The `--repeat N` option (at least 1), else `defaultCount`.
func repeatCount(_ arguments: [String], default defaultCount: Int) -> Int {
    guard let i = arguments.firstIndex(of: "--repeat"), i + 1 < arguments.count, let n = Int(arguments[i + 1]) else {
        return defaultCount
    }
    return max(1, n)
}

/// Size of the file at `path`, bytes.
func fileBytes(_ path: String) throws -> Double {
    Double((try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0)
}

func usage() -> Never {
    FileHandle.standardError.write(Data("usage: runnect-bench gpx FILE [--repeat N] | geodesic N | fit FILE [--repeat N] | search [COURSES] | import [FILES] | export [POINTS] | index [COURSES]\n".utf8))
    exit(64)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first else { usage() }

switch mode {
case "gpx":
    guard arguments.count >= 2 else { usage() }
    let path = arguments[1]
    let repeats = repeatCount(arguments, default: 3)
    let bytes = try fileBytes(path)
    var best = Double.infinity
    var parseBest = Double.infinity
    var points = 0
    var distance = 0.0
    for _ in 0..<repeats {
        let start = now()
        let activity = try ActivityReader.read(path: path)
        let parsed = now()
        let stats = activity.stats(options: StatsOptions(includeSplits: true))
        let end = now()
        best = min(best, end - start)
        parseBest = min(parseBest, parsed - start)
        points = stats.points
        distance = stats.distanceMeters
    }
    let megabytes = bytes / 1e6
    emit([("tool", "runnect"), ("work", "parse+stats"), ("file", path), ("bytes", Int(bytes)),
          ("points", points), ("seconds", best), ("parse_seconds", parseBest),
          ("mb_per_s", megabytes / best), ("parse_mb_per_s", megabytes / parseBest),
          ("points_per_s", Double(points) / best), ("peak_rss_mib", peakResidentMiB()),
          ("distance_m", distance)])
    FileHandle.standardError.write(Data(String(
        format: "runnect: %.1f MB in %.3f s (parse %.3f s): %.0f MB/s, %.0f points/s, peak %.1f MiB\n",
        megabytes, best, parseBest, megabytes / best, Double(points) / best, peakResidentMiB()).utf8))

case "geodesic":
    let count = arguments.count >= 2 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
    var path: [Coordinate] = []
    path.reserveCapacity(count)
    var point = Coordinate(latitude: 37.5, longitude: 127.0)
    for i in 0..<count {
        path.append(point)
        point.latitude += 1e-5 * sin(Double(i) * 0.01)
        point.longitude += 1.2e-5
    }
    let start = now()
    let length = Geodesic.length(of: path)
    let seconds = now() - start
    emit([("tool", "runnect"), ("work", "geodesic-path"), ("legs", count - 1), ("seconds", seconds),
          ("legs_per_s", Double(count - 1) / seconds), ("length_m", length)])
    FileHandle.standardError.write(Data(String(
        format: "runnect: %d geodesic legs in %.3f s: %.0f legs/s\n", count - 1, seconds,
        Double(count - 1) / seconds).utf8))

case "fit":
    try fitBench(Array(arguments.dropFirst()))

case "search":
    try searchBench(Array(arguments.dropFirst()))

case "import":
    try importBench(Array(arguments.dropFirst()))

case "export":
    try exportBench(Array(arguments.dropFirst()))

case "index":
    try indexBench(Array(arguments.dropFirst()))

default:
    usage()
}
