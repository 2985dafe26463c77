import Foundation
import RunnectBenchmarkSupport
import RunnectStore

/// `runnect-bench index [COURSES] [--shared]`: a store of COURSES generated courses (default
/// 10,000) exported as the discovery index, every course (or only the shared ones), on one core.
func indexBench(_ arguments: [String]) async throws {
    let count = arguments.first.flatMap { Int($0) } ?? 10_000
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "\(UUID().uuidString)-runnect-index-bench")
    defer { try? FileManager.default.removeItem(at: folder) }
    let report = try await DiscoveryIndexBenchmark.run(
        courseCount: count, folder: folder,
        scope: arguments.contains("--shared") ? .shared : .all)
    emit([
        ("tool", "runnect"), ("work", "index-export"), ("store_courses", report.storeCourses),
        ("courses", report.exportedCourses), ("points_per_course", report.pointsPerCourse),
        ("seconds", report.firstSeconds), ("cpu_seconds", report.firstCPUSeconds ?? -1),
        ("system_seconds", report.firstSystemSeconds ?? -1), ("rerun_seconds", report.rerunSeconds),
        ("courses_per_s", Double(report.exportedCourses) / report.firstSeconds), ("files", report.files),
        ("bytes", Int(report.bytes)), ("peak_rss_mib", peakResidentMiB()),
    ])
    FileHandle.standardError.write(Data((report.text + String(format: ", peak %.1f MiB\n", peakResidentMiB())).utf8))
}
