import Foundation
import RunnectKit
import RunnectPostgres
import RunnectStore

/// `runnect-bench runners [--seconds S] [--tasks N] [--runners R] [--url ADMIN_URL]`: one open
/// store answering R runners from N tasks at once for S seconds (default 30 s, 64 tasks, 8
/// runners), each task drawing courses, sharing every other one and reading its runner's list,
/// the shared list and a search between writes. SQLite by default; with `--url`, a new database of
/// that PostgreSQL server, opened as a server's role (a member of `runnect_server`) acting for
/// each runner. Checks, and prints, that nothing written was lost and that no read showed a
/// runner another's private course; exits 1 when one did.
func runnersBench(_ arguments: [String]) async throws {
    let seconds = option("--seconds", in: arguments).flatMap(Double.init) ?? 30
    let taskCount = option("--tasks", in: arguments).flatMap(Int.init) ?? 64
    let runnerCount = option("--runners", in: arguments).flatMap(Int.init) ?? 8
    let path = temporaryPath("runnect-runners.sqlite")
    defer { removeDatabase(path) }

    let store: CourseStore
    var runners = (0..<runnerCount).map { "runner\($0)" }
    var dropDatabase: (() async -> Void)?
    if let adminText = option("--url", in: arguments) {
        let admin = try PostgresURL(adminText)
        let database = "runnect_runners_\(UInt32.random(in: 0...UInt32.max))"
        try await PostgresSession.with(admin) { try await $0.execute(["CREATE DATABASE \(database)"]) }
        dropDatabase = {
            _ = try? await PostgresSession.with(admin) {
                try await $0.execute(["DROP DATABASE IF EXISTS \(database) WITH (FORCE)"])
            }
        }
        var url = admin
        url.database = database
        _ = try await PostgresAdministration.initialize(url)
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        runners = runners.map { "\($0)_\(suffix)" }
        for runner in runners {
            _ = try await PostgresAdministration.addRunner(
                try RoleName(runner), password: nil, existing: false, at: url)
        }
        let server = "server_\(suffix)"
        _ = try await PostgresAdministration.addRunner(
            try RoleName(server), password: nil, existing: false, server: true, at: url)
        url.user = server
        url.password = nil
        store = try await CourseStore(postgres: url)
    } else {
        store = try await CourseStore(path: path, user: runners[0])
    }

    let deadline = now() + seconds
    let started = now()
    let outcomes = try await withThrowingTaskGroup(of: RunnerTaskOutcome.self) { group in
        for task in 0..<taskCount {
            let runner = runners[task % runners.count]
            group.addTask { try await runnerTask(store.acting(as: runner), task: task, until: deadline) }
        }
        var all: [RunnerTaskOutcome] = []
        for try await outcome in group { all.append(outcome) }
        return all
    }
    let elapsed = now() - started

    // Nothing lost: each runner's list is exactly what its tasks drew.
    var lost = 0
    var gained = 0
    for runner in runners {
        let drawn = Set(outcomes.filter { $0.runner == runner }.flatMap(\.drawn))
        let listed = Set(
            try await store.acting(as: runner).list(.mine(uploaded: nil), page: Page(limit: 1_000_000)).map(\.id))
        lost += drawn.subtracting(listed).count
        gained += listed.subtracting(drawn).count
    }
    let writes = outcomes.reduce(0) { $0 + $1.writes }
    let reads = outcomes.reduce(0) { $0 + $1.reads }
    let wrong = outcomes.reduce(0) { $0 + $1.wrongRows }
    let latencies = outcomes.flatMap(\.milliseconds).sorted()
    let p95 = latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, latencies.count * 95 / 100)]
    emit([
        ("bench", "runners"), ("backend", dropDatabase == nil ? "sqlite" : "postgresql"), ("tasks", taskCount),
        ("runners", runnerCount), ("seconds", elapsed), ("writes", writes), ("reads", reads),
        ("operations_per_second", Double(writes + reads) / elapsed), ("p95_ms", p95), ("lost", lost),
        ("gained", gained), ("wrong_rows", wrong),
    ])
    FileHandle.standardError.write(
        Data(
            ("runners: \(taskCount) tasks as \(runnerCount) runners, \(String(format: "%.1f", elapsed)) s: "
                + "\(writes) writes, \(reads) reads (\(String(format: "%.0f", Double(writes + reads) / elapsed))/s, "
                + "p95 \(String(format: "%.1f", p95)) ms); lost \(lost), gained \(gained), rows seen by the "
                + "wrong runner \(wrong)\n").utf8))
    await dropDatabase?()
    if lost + gained + wrong > 0 { exit(1) }
}

/// What one task of the runners benchmark did.
struct RunnerTaskOutcome: Sendable {
    var runner: String
    var drawn: [Int64] = []
    var writes = 0
    var reads = 0
    /// Rows a read returned that its runner may not see (another's private course).
    var wrongRows = 0
    var milliseconds: [Double] = []
}

/// One task: until `deadline`, a course drawn (every other one shared), then the runner's own
/// list, the shared list and a keyword search, each checked.
func runnerTask(_ store: CourseStore, task: Int, until deadline: Double) async throws -> RunnerTaskOutcome {
    var outcome = RunnerTaskOutcome(runner: store.user)
    var step = 0
    func timed<T>(_ work: () async throws -> T) async throws -> T {
        let start = now()
        defer { outcome.milliseconds.append((now() - start) * 1000) }
        return try await work()
    }
    while now() < deadline {
        let seed = task * 1_000_000 + step
        let points = (0..<4).map { i in
            Coordinate(
                latitude: 37.45 + Double(seed % 997) * 1e-4 + Double(i) * 1e-3,
                longitude: 126.9 + Double(seed / 997 % 997) * 1e-4 + Double(i) * 1.5e-3)
        }
        var course = try await timed { try await store.draw(points: points, title: "한강 러닝 \(task)-\(step)") }
        outcome.writes += 1
        if step.isMultiple(of: 2) {
            course = try await timed { try await store.upload(id: course.id, title: course.title, description: "공유") }
            outcome.writes += 1
        }
        outcome.drawn.append(course.id)
        let own = try await timed { try await store.list(.mine(uploaded: nil), page: Page(limit: 20)) }
        let shared = try await timed { try await store.list(.shared, page: Page(limit: 20)) }
        let found = try await timed { try await store.search(keywords: "한강", scope: .all, page: Page(limit: 20)) }
        outcome.reads += 3
        outcome.wrongRows += own.count { $0.owner != store.user }
        outcome.wrongRows += shared.count { !$0.isUploaded }
        outcome.wrongRows += found.count { !$0.isUploaded && $0.owner != store.user }
        step += 1
    }
    return outcome
}
