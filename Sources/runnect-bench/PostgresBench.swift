import Foundation
import RunnectBenchmarkSupport
import RunnectPostgres
import RunnectStore

/// `runnect-bench pg search|near [COURSES] --url ADMIN_URL [--repeat N] [--jobs N] [--keep PATH] [--keep-database]
/// [--database NAME [--postgres-only]] [--only KEYWORDS]…`:
/// the search (or near-me) benchmark's store built in SQLite and timed there, then copied by
/// `db copy` into a new database of the PostgreSQL server at ADMIN_URL (an administrator: the
/// copy keeps ids and owners), timed, and the same query set timed on PostgreSQL as a runner
/// role (row-level security and all), side by side. The database is dropped at the end
/// unless `--keep-database`. `--database NAME` times the queries again on a database kept before
/// (migrated to this build's schema first; no copy), and with `--postgres-only` only there.
/// `--only KEYWORDS` (repeatable) times on PostgreSQL only the queries of those keywords (to
/// profile one). `--courses-read function|prepared|statement` reads each page's courses through
/// `runnect_courses` (the default), postgres-nio's prepared statement, or the statement as it is.
/// `scripts/pg-cluster.sh run` gives a throwaway server: ADMIN_URL is its `$RUNNECT_PG_URL`.
func postgresBench(_ arguments: [String]) async throws {
    guard let work = arguments.first, ["search", "near"].contains(work),
        let adminText = option("--url", in: arguments)
    else { usage() }
    let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 100_000
    let repeats = repeatCount(arguments, default: 20)
    let jobs = option("--jobs", in: arguments).flatMap { Int($0) } ?? 1
    let kept = option("--keep", in: arguments)
    let path = kept ?? temporaryPath("runnect-pg-bench.sqlite")
    defer { if kept == nil { removeDatabase(path) } }

    // SQLite first: builds the corpus and times the queries on it (not with `--postgres-only`,
    // which times a kept database again: `--database NAME`).
    let sqliteLines: [String]
    let sqliteText: String
    if arguments.contains("--postgres-only") {
        guard option("--database", in: arguments) != nil else { usage() }
        (sqliteLines, sqliteText) = ([], "not timed (--postgres-only)")
    } else if work == "search" {
        let report = try await SearchBenchmark.run(
            courseCount: count, path: path, repeats: repeats, jobs: jobs, reuse: kept != nil)
        (sqliteLines, sqliteText) = (report.jsonLines, report.text)
    } else {
        let report = try await NearBenchmark.run(
            courseCount: count, path: path, repeats: repeats, jobs: jobs, reuse: kept != nil)
        (sqliteLines, sqliteText) = (report.jsonLines, report.text)
    }
    for line in sqliteLines { print("{\"backend\":\"sqlite\"," + line.dropFirst()) }
    FileHandle.standardError.write(Data(("SQLite\n" + sqliteText + "\n").utf8))

    let admin = try PostgresURL(adminText)
    let reused = option("--database", in: arguments)
    let database = reused ?? "runnect_bench_\(UInt32.random(in: 0...UInt32.max))"
    if reused == nil {
        try await PostgresSession.with(admin) { session in
            try await session.execute(["CREATE DATABASE \(database)"])
        }
    }
    let keepDatabase = reused != nil || arguments.contains("--keep-database")
    defer {
        if keepDatabase { FileHandle.standardError.write(Data("kept database \(database)\n".utf8)) }
        try? runBlocking {
            guard !keepDatabase else { return }
            try await PostgresSession.with(admin) { session in
                try await session.execute(["DROP DATABASE IF EXISTS \(database) WITH (FORCE)"])
            }
        }
    }
    let databaseAdmin = {
        var url = admin
        url.database = database
        return url
    }()
    _ = try await PostgresAdministration.initialize(databaseAdmin)

    // The copy, as `runnect db copy FILE URL` does it.
    let destinationBackend = try await PostgresBackend(url: databaseAdmin)
    var copy: CopyBenchmark.Report?
    if reused == nil {
        let source = try await CourseStore(path: path, user: "bench")
        let copied = try await CopyBenchmark.copy(from: source, to: CourseStore(backend: destinationBackend))
        reportCopy(copied, pass: "copy", to: "PostgreSQL")
        copy = copied
    }
    try await destinationBackend.optimizeSearch()

    // The queries as the runner `bench` (over the administrator's connection settings).
    try await destinationBackend.ensureUsers(["bench"])
    var runner = databaseAdmin
    runner.user = "bench"
    runner.password = nil
    // `--courses-read function|prepared|statement`: how a page's courses are read (the
    // shipped `runnect_courses` function by default), to weigh the function against the others.
    var plans = PostgresSearchPlans.standard
    if let read = option("--courses-read", in: arguments) {
        guard let chosen = PostgresSearchPlans.CoursesRead(rawValue: read) else { usage() }
        plans.coursesRead = chosen
    }
    let store = try await CourseStore(backend: PostgresBackend(url: runner, searchPlans: plans))
    if work == "search" {
        let only = options("--only", in: arguments)
        let figures = try await SearchBenchmark.time(store, repeats: repeats, only: only.isEmpty ? nil : Set(only))
        let report = SearchBenchmark.Report(
            courseCount: count, commitEvery: 0, jobs: jobs, insertSeconds: copy?.seconds ?? 0,
            insertCoursesPerSecond: copy?.coursesPerSecond ?? 0, optimizeSeconds: nil, tokenIndexSegments: 0,
            fileBytes: 0,
            queries: figures)
        for line in report.jsonLines { print("{\"backend\":\"postgresql\"," + line.dropFirst()) }
        FileHandle.standardError.write(Data(("PostgreSQL\n" + report.text + "\n").utf8))
    } else {
        let figures = try await NearBenchmark.time(store, repeats: repeats)
        let report = NearBenchmark.Report(
            courseCount: count, insertSeconds: copy?.seconds ?? 0, fileBytes: 0, queries: figures)
        for line in report.jsonLines { print("{\"backend\":\"postgresql\"," + line.dropFirst()) }
        FileHandle.standardError.write(Data(("PostgreSQL\n" + report.text + "\n").utf8))
    }
}

/// Runs async work from this synchronous tool, waiting for it.
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: Result<T, Error>!
    Task {
        do { result = .success(try await body()) } catch { result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try result.get()
}
