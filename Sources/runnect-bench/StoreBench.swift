import Foundation
import RunnectBenchmarkSupport
import RunnectKit
import RunnectStore

/// `runnect-bench search [COURSES] [--commit N] [--jobs N] [--optimize]`: builds a store of
/// generated courses through the store's bulk insert (drafts made on N threads) and times the
/// fixed query set (``SearchBenchmark``).
func searchBench(_ arguments: [String]) async throws {
    let count = arguments.first.flatMap { Int($0) } ?? 100_000
    let commit = option("--commit", in: arguments).flatMap { Int($0) } ?? 10_000
    let path = temporaryPath("runnect-search-bench.sqlite")
    defer { removeDatabase(path) }
    let jobs = option("--jobs", in: arguments).flatMap { Int($0) } ?? 1
    let report = try await SearchBenchmark.run(
        courseCount: count, path: path, commitEvery: commit,
        optimize: arguments.contains("--optimize"), jobs: jobs)
    for line in report.jsonLines { print(line) }
    FileHandle.standardError.write(Data((report.text + "\n").utf8))
}

/// `runnect-bench near [COURSES] [--jobs N] [--repeat N] [--keep PATH]`: a store of placed
/// courses and the near-me query set (``NearBenchmark``). With `--keep`, the store is built at
/// PATH the first time and reused afterwards (a million courses take minutes to build).
func nearBench(_ arguments: [String]) async throws {
    let count = arguments.first.flatMap { Int($0) } ?? 100_000
    let jobs = option("--jobs", in: arguments).flatMap { Int($0) } ?? 1
    let kept = option("--keep", in: arguments)
    let path = kept ?? temporaryPath("runnect-near-bench.sqlite")
    defer { if kept == nil { removeDatabase(path) } }
    let report = try await NearBenchmark.run(
        courseCount: count, path: path, repeats: repeatCount(arguments, default: 20), jobs: jobs, reuse: kept != nil)
    for line in report.jsonLines { print(line) }
    FileHandle.standardError.write(Data((report.text + "\n").utf8))
}

/// `runnect-bench import FILES [--points N] [--jobs N]`: writes FILES generated GPX runs of N
/// points each and imports them as `runnect import` does (``BulkImporter``), timing the import.
func importBench(_ arguments: [String]) async throws {
    let count = arguments.first.flatMap { Int($0) } ?? 10_000
    let points = option("--points", in: arguments).flatMap { Int($0) } ?? 200
    let jobs = option("--jobs", in: arguments).flatMap { Int($0) } ?? BulkImporter.defaultJobs
    let folder = URL(fileURLWithPath: temporaryPath("runnect-import-bench"))
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var items: [ImportItem] = []
    var bytes = 0
    for index in 0..<count {
        let text = generatedRun(number: index, points: points)
        let url = folder.appendingPathComponent(String(format: "run_%06d.gpx", index))
        try Data(text.utf8).write(to: url)
        bytes += text.utf8.count
        items.append(ImportItem(path: url.path))
    }
    let path = folder.appendingPathComponent("courses.sqlite").path
    let store = try await CourseStore(path: path, user: "bench")
    let start = now()
    let summary = try await BulkImporter(store: store, jobs: jobs).run(items)
    let seconds = now() - start
    guard summary.imported == count else {
        throw BenchError.failed("imported \(summary.imported) of \(count) files (\(summary.failed) failed)")
    }
    emit([
        ("tool", "runnect"), ("work", "import"), ("files", count), ("points_per_file", points),
        ("bytes", bytes), ("jobs", jobs), ("seconds", seconds),
        ("courses_per_s", Double(count) / seconds), ("mb_per_s", Double(bytes) / 1e6 / seconds),
        ("peak_rss_mib", peakResidentMiB()),
    ])
    FileHandle.standardError.write(
        Data(
            String(
                format:
                    "runnect: imported %d GPX files of %d points (%.1f MB) with %d jobs in %.2f s: %.0f courses/s\n",
                count, points, Double(bytes) / 1e6, jobs, seconds, Double(count) / seconds
            ).utf8))
}

/// A GPX run around Seoul: `points` fixes a second apart with elevation and heart rate.
private func generatedRun(number: Int, points: Int) -> String {
    var text =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<gpx version=\"1.1\" creator=\"runnect-bench\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
        + "<trk><name>한강 러닝 \(number)</name><trkseg>\n"
    let base = 1_700_000_000 + number * 3_600
    for i in 0..<points {
        let lat = 37.5 + Double(number % 500) * 1e-4 + Double(i) * 2.5e-5
        let lon = 127.0 + Double(number / 500) * 1e-4 + Double(i) * 1.5e-5
        let time = Date(timeIntervalSince1970: Double(base + i)).ISO8601Format()
        text +=
            String(format: "<trkpt lat=\"%.7f\" lon=\"%.7f\"><ele>%.1f</ele><time>", lat, lon, 20 + Double(i % 30))
            + time + "</time></trkpt>\n"
    }
    return text + "</trkseg></trk></gpx>\n"
}

enum BenchError: Error {
    case failed(String)
}

func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// Every value of a repeatable option (`--only A --only B`).
func options(_ name: String, in arguments: [String]) -> [String] {
    arguments.indices.dropLast().filter { arguments[$0] == name }.map { arguments[$0 + 1] }
}

func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)").path
}

func removeDatabase(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}
