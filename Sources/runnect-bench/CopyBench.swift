import Foundation
import RunnectBenchmarkSupport
import RunnectStore

/// `runnect-bench copy [COURSES] [--jobs N]`: fills a SQLite store with generated courses and
/// times `db copy` of it into a new SQLite file, then again (everything present: the idempotent
/// pass).
func copyBench(_ arguments: [String]) async throws {
    let count = arguments.first.flatMap { Int($0) } ?? 100_000
    let jobs = option("--jobs", in: arguments).flatMap { Int($0) } ?? BulkImporter.defaultJobs
    let from = temporaryPath("runnect-copy-bench-from.sqlite")
    let to = temporaryPath("runnect-copy-bench-to.sqlite")
    defer {
        removeDatabase(from)
        removeDatabase(to)
    }
    let source = try await CopyBenchmark.fill(path: from, count: count, jobs: jobs)
    let destination = try await CourseStore(path: to, user: "bench")
    for pass in ["copy", "again"] {
        let report = try await CopyBenchmark.copy(from: source, to: destination)
        reportCopy(report, pass: pass, to: "SQLite")
    }
}

/// One `db-copy` JSON line and a line for people: a copy from SQLite into `destination`.
func reportCopy(_ copy: CopyBenchmark.Report, pass: String, to destination: String) {
    emit([
        ("tool", "runnect"), ("work", "db-copy"), ("pass", pass), ("from", "sqlite"),
        ("to", destination.lowercased()), ("courses", copy.courses), ("copied", copy.summary.courses),
        ("seconds", copy.seconds), ("courses_per_s", copy.coursesPerSecond),
    ])
    FileHandle.standardError.write(
        Data(
            String(
                format: "runnect: db copy (%@) of %d courses, SQLite to %@, in %.2f s: %.0f courses/s\n",
                pass, copy.courses, destination, copy.seconds, copy.coursesPerSecond
            ).utf8))
}
