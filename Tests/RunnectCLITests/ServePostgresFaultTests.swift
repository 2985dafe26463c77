import Foundation
import RunnectTestSupport
import Testing

/// `runnect serve` on PostgreSQL while the database crashes and restarts
/// (`pg_ctl restart -m immediate`) under 4 writers and 16 feed readers: every request answers
/// within 5 s, an outage as a 503 envelope with `Retry-After` (never another 5xx); the server
/// serves again by itself; every write that got a 2xx is stored whole.
@Suite(.postgres) struct ServePostgresFaultTests {
    static let secret = ["RUNNECT_TOKEN_SECRET": String(repeating: "q", count: 40)]

    @Test func aDatabaseCrashIsA503WithinFiveSecondsAndNothingAcknowledgedIsLost() async throws {
        let cluster = try PostgresCluster.startPrivate()
        defer { try? cluster.stop() }
        let database = try cluster.makeDatabase(prefix: "servecrash")
        let admin = cluster.url(database: database)
        let role = PostgresCluster.uniqueRoleName("crash_server")
        let initialized = try RunnectProcess.run(
            ["db", "init", "--server-role", role, "--password-stdin", "--db", admin], stdin: "server pw\n")
        try #require(initialized.status == 0, "\(initialized.stderr)")
        let url = cluster.url(database: database, user: role, password: "server pw")
        let images = try TemporaryFolder("runnect-serve-crash")
        let server = try ServeProcess(
            ["--db", url, "--port", "0", "--images", images.path("images"), "--writes-per-minute", "0"],
            environment: Self.secret)
        let writers = try (0..<4).map {
            try ServeWriter(
                baseURL: server.baseURL, runner: PostgresCluster.uniqueRoleName("runner\($0)"),
                arguments: ["--db", url], environment: Self.secret)
        }
        var drawn: [Int64] = []
        for writer in writers { drawn.append(try #require(await writer.drawCourse(0).id)) }
        let courses = drawn

        struct Outcome: Sendable {
            var kind: String
            var answer: ServeWriter.Answer
            var n: Int
            var ended: Date
        }
        let outcomes = Locked<[Outcome]>([])
        // The load runs until 10 s after the restart (set below), at most a minute in all.
        let stopAt = Locked(Date().addingTimeInterval(60))
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for (lane, writer) in writers.enumerated() {
                    group.addTask {
                        var n = lane * 100_000
                        while Date() < stopAt.value {
                            n += 1
                            let drawing = n % 4 == 0
                            let answer =
                                drawing
                                ? await writer.drawCourse(n) : await writer.postRecord(course: courses[lane], n)
                            outcomes.update {
                                $0.append(
                                    Outcome(kind: drawing ? "course" : "record", answer: answer, n: n, ended: Date()))
                            }
                        }
                    }
                }
                for reader in 0..<16 {
                    group.addTask {
                        let writer = writers[reader % writers.count]
                        while Date() < stopAt.value {
                            let answer = await writer.feed()
                            outcomes.update { $0.append(Outcome(kind: "feed", answer: answer, n: 0, ended: Date())) }
                        }
                    }
                }
            }
        }
        // The crash once the load is answered (2 s at least; longer on a machine loaded by the
        // suite), the restart on a thread of its own: the load's tasks keep the task threads.
        try await Task.sleep(for: .seconds(2))
        let loaded = Date().addingTimeInterval(30)
        while outcomes.value.count < 16, Date() < loaded { try await Task.sleep(for: .milliseconds(100)) }
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            Thread { done.resume(with: Result { try cluster.crashRestart() }) }.start()
        }
        let restarted = Date()
        stopAt.update { $0 = min($0, restarted.addingTimeInterval(10)) }
        await load.value

        let all = outcomes.value
        let slowest = all.map(\.answer.seconds).max() ?? 0
        #expect(slowest <= 5, "a request took \(slowest) s during the outage")
        let statuses = Dictionary(grouping: all, by: \.answer.status).mapValues(\.count)
        let unexpected = statuses.keys.filter { ![200, 201, 503].contains($0) }
        #expect(unexpected.isEmpty, "answers by status: \(statuses)")
        #expect(all.filter { $0.answer.status == 503 }.allSatisfy { $0.answer.retryAfter != nil })
        // It serves again by itself, reads and writes, after the restart.
        let after = all.filter { $0.ended > restarted.addingTimeInterval(5) }
        #expect(after.contains { $0.kind == "feed" && $0.answer.status == 200 }, "\(statuses)")
        #expect(after.contains { $0.kind != "feed" && $0.answer.status == 201 }, "\(statuses)")

        // Every acknowledged write is there, whole.
        let stored = try cluster.psql([
            "-d", admin, "-At", "-F", "\t", "-c",
            "SELECT 'record', id, title FROM record UNION ALL SELECT 'course', id, title FROM course",
        ])
        var titles: [String: String] = [:]
        for line in stored.stdout.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if fields.count == 3 { titles["\(fields[0]) \(fields[1])"] = String(fields[2]) }
        }
        for outcome in all where outcome.kind != "feed" && outcome.answer.status == 201 {
            let id = try #require(outcome.answer.id)
            let title = outcome.kind == "course" ? "코스 \(outcome.n)" : "기록 \(outcome.n)"
            #expect(titles["\(outcome.kind) \(id)"] == title, "\(outcome.kind) \(id) acknowledged, not stored whole")
        }
        #expect(server.stop().status == 0)
    }
}
