import Foundation
import RunnectBenchmarkSupport

/// `runnect-bench store-matching [COURSES] [--points N] [--imports N]`: a store of generated
/// courses (100,000 by default) with courses drawn on a generated run, and that run imported as
/// a record again and again; milliseconds per import, one core.
func storeMatchingBench(_ arguments: [String]) async throws {
    let courses = arguments.first.flatMap { Int($0) } ?? 100_000
    let points = option("--points", in: arguments).flatMap { Int($0) } ?? 10_000
    let imports = max(1, option("--imports", in: arguments).flatMap { Int($0) } ?? 20)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "runnect-store-matching-\(getpid()).sqlite"
    )
    .path
    defer {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    let report = try await StoreMatchingBenchmark.run(
        courseCount: courses, path: path, runPoints: points, imports: imports)
    let percentile = StoreMatchingBenchmark.Report.percentile
    emit([
        ("tool", "runnect"), ("work", "store-match"), ("courses", report.generatedCourses + report.runCourses),
        ("run_points", report.runPoints), ("near_run", report.candidatesNearRun), ("reached", report.candidatesReached),
        ("imports", report.draftMilliseconds.count), ("draft_ms_p50", percentile(report.draftMilliseconds, 50)),
        ("store_ms_p50", percentile(report.storeMilliseconds, 50)),
        ("store_ms_p95", percentile(report.storeMilliseconds, 95)),
        ("total_ms_p50", percentile(report.totalMilliseconds, 50)),
        ("total_ms_p95", percentile(report.totalMilliseconds, 95)), ("total_ms_max", report.totalMilliseconds.max()!),
        ("cpu_ms_p50", percentile(report.cpuMilliseconds, 50)), ("cpu_ms_p95", percentile(report.cpuMilliseconds, 95)),
        ("index_ms_p50", percentile(report.indexMilliseconds, 50)),
        ("candidates_ms_p50", percentile(report.candidatesMilliseconds, 50)),
        ("build_s", report.buildSeconds), ("peak_rss_mib", peakResidentMiB()),
    ])
    FileHandle.standardError.write(Data((report.text + "\n").utf8))
}
