import Foundation
import RunnectKit

// runnect-bench: throughput and peak memory of Runnect's hot paths, for scripts/bench.sh.
//
//   runnect-bench gpx FILE [--repeat N]   parse + full stats (splits included), best of N runs
//   runnect-bench points FILE [--repeat N]
//                                         the same on a tapped-points JSON file
//   runnect-bench points-file PATH [POINTS]
//                                         writes that file (seeded, 1,306,000 points: 64 MB)
//   runnect-bench geodesic N              N geodesic legs through the batch path call
//   runnect-bench fit FILE [--repeat N]   FIT decode into an Activity (and with stats), best of N
//   runnect-bench search [COURSES] [--commit N] [--jobs N] [--optimize]
//                                         store of generated courses, keyword search latency
//   runnect-bench near [COURSES] [--jobs N] [--repeat N] [--keep PATH]
//                                         store of placed courses (30 % in Seoul), near-me
//                                         search latency; --keep builds PATH once and reuses it
//   runnect-bench import [FILES] [--points N] [--jobs N]
//                                         bulk import of generated GPX files into a store
//   runnect-bench index [COURSES] [--shared]
//                                         discovery-index export of a generated store (one core)
//   runnect-bench export [POINTS] [--repeat N]
//                                         SVG preview and GeoJSON write of one course, best of N
//   runnect-bench write FILE OUTDIR --format gpx|tcx|fit [--kind course|run] [--repeat N]
//                                         FILE read once, written as GPX/TCX/FIT, best of N
//   runnect-bench matching [POINTS] [--courses N] [--repeat N]
//                                         one generated run against candidate courses of each
//                                         kind: time per course to accept or reject, best of N
//   runnect-bench stats-json FILE… [--repeat N]
//                                         the stats column's JSON read by StoredStats.decode and
//                                         by JSONDecoder, µs a row
//   runnect-bench numbers FILE… [--repeat N]
//                                         the files' coordinates and elevations parsed by
//                                         DecimalParser and by std::from_chars, best of N
//   runnect-bench pg search|near [COURSES] --url ADMIN_URL [--repeat N] [--jobs N] [--keep PATH]
//                                         the search or near-me benchmark on SQLite, `db copy`
//                                         of its store into PostgreSQL, the same queries there
//                                         ([--keep-database] [--database NAME [--postgres-only]])
//   runnect-bench runners [--seconds S] [--tasks N] [--runners R] [--url ADMIN_URL]
//                                         one open store, N tasks as R runners reading and
//                                         writing for S seconds: rates, p95, nothing lost or
//                                         seen by the wrong runner (PostgreSQL via a server role)
//   runnect-bench tokens [COUNT] [--repeat N]
//                                         the server's HS256 access tokens over libcrypto: µs to
//                                         issue one and to verify one, best of N
//   runnect-bench serve-store OUT [--courses N] [--runners R] [--url ADMIN_URL]
//                                         the store scripts/bench-serve.sh serves: app runners,
//                                         shared courses, scraps and records, tokens, queries
//   runnect-bench store-matching [COURSES] [--points N] [--imports N]
//                                         a run imported as a record into a store of COURSES
//                                         generated courses: milliseconds per import (one core)
//
// Prints one JSON object per line (so the script can tabulate it) and a human line on stderr.
// Build with -c release: debug builds are 10–50x slower and say nothing about the product.
#if canImport(Glibc)
    import Glibc
#endif

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
    FileHandle.standardError.write(
        Data(
            "usage: runnect-bench gpx FILE [--repeat N] | points FILE [--repeat N] | points-file PATH [POINTS] | geodesic N | fit FILE [--repeat N] | search [COURSES] | near [COURSES] | import [FILES] | export [POINTS] | write FILE OUTDIR --format gpx|tcx|fit | index [COURSES] | matching [POINTS] [--courses N] | store-matching [COURSES] [--points N] [--imports N] | numbers FILE… [--repeat N] | stats-json FILE… [--repeat N] | copy [COURSES] [--jobs N] | serve-store OUT [--courses N] [--runners R] [--url ADMIN_URL] | pg search|near [COURSES] --url ADMIN_URL [--repeat N] [--keep PATH] [--only KEYWORDS] [--courses-read function|prepared|statement]\n"
                .utf8))
    exit(64)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first else { usage() }

/// Runs one benchmark; what it throws ends the tool with one line on stderr (not a trap).
func run(_ mode: String, _ arguments: [String]) async throws {
    switch mode {
    case "gpx":
        guard arguments.count >= 2 else { usage() }
        try readBench(path: arguments[1], repeats: repeatCount(arguments, default: 3), work: "parse+stats")

    case "points":
        guard arguments.count >= 2 else { usage() }
        try readBench(path: arguments[1], repeats: repeatCount(arguments, default: 3), work: "points-json parse+stats")

    case "points-file":
        try writePointsFile(Array(arguments.dropFirst()))

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
        emit([
            ("tool", "runnect"), ("work", "geodesic-path"), ("legs", count - 1), ("seconds", seconds),
            ("legs_per_s", Double(count - 1) / seconds), ("length_m", length),
        ])
        FileHandle.standardError.write(
            Data(
                String(
                    format: "runnect: %d geodesic legs in %.3f s: %.0f legs/s\n", count - 1, seconds,
                    Double(count - 1) / seconds
                ).utf8))

    case "fit":
        try fitBench(Array(arguments.dropFirst()))

    case "search":
        try await searchBench(Array(arguments.dropFirst()))

    case "near":
        try await nearBench(Array(arguments.dropFirst()))

    case "import":
        try await importBench(Array(arguments.dropFirst()))

    case "export":
        try exportBench(Array(arguments.dropFirst()))

    case "write":
        try writeBench(Array(arguments.dropFirst()))

    case "index":
        try await indexBench(Array(arguments.dropFirst()))

    case "matching":
        matchingBench(Array(arguments.dropFirst()))

    case "store-matching":
        try await storeMatchingBench(Array(arguments.dropFirst()))

    case "numbers":
        try numbersBench(Array(arguments.dropFirst()))

    case "copy":
        try await copyBench(Array(arguments.dropFirst()))

    case "stats-json":
        try statsJSONBench(Array(arguments.dropFirst()))

    case "pg":
        try await postgresBench(Array(arguments.dropFirst()))

    case "runners":
        try await runnersBench(Array(arguments.dropFirst()))

    case "tokens":
        try tokensBench(Array(arguments.dropFirst()))

    case "serve-store":
        try await serveStoreBench(Array(arguments.dropFirst()))

    default:
        usage()
    }
}

do {
    try await run(mode, arguments)
} catch {
    FileHandle.standardError.write(Data("runnect-bench \(mode): \(error)\n".utf8))
    exit(1)
}
