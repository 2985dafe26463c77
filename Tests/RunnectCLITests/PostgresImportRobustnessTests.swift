import Foundation
import RunnectTestSupport
import Testing

/// `runnect import` on PostgreSQL under load and under a crash of the server, through the binary.
@Suite(.postgres)
struct PostgresImportRobustnessTests {
    /// `count` distinct timed GPX runs around Seoul, numbered from `first`, in `folder`.
    static func writeRuns(_ count: Int, from first: Int = 0, in folder: URL) throws -> [String] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try (first..<first + count).map { number in
            var lines = [
                #"<?xml version="1.0" encoding="UTF-8"?>"#,
                #"<gpx version="1.1" creator="runnect tests" xmlns="http://www.topografix.com/GPX/1/1">"#,
                "<trk><name>run \(number)</name><trkseg>",
            ]
            let start = 1_700_000_000 + number * 86_400
            for j in 0..<60 {
                let latitude = 37.40 + Double(number % 40) * 0.004 + Double(j) * 0.00004
                let longitude = 126.90 + Double(number / 40) * 0.004 + Double(j) * 0.00003
                let time = Date(timeIntervalSince1970: TimeInterval(start + j * 3))
                lines.append(
                    #"<trkpt lat="\#(latitude)" lon="\#(longitude)"><time>\#(time.ISO8601Format())</time></trkpt>"#)
            }
            lines.append("</trkseg></trk></gpx>")
            let path = folder.appendingPathComponent(String(format: "run_%04d.gpx", number)).path
            try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    /// A database set up with `db init`, and runners added with `db add-user`: their URLs.
    static func club(
        _ cluster: PostgresCluster, database: String, runners: Int
    ) throws -> (admin: String, runners: [(name: String, url: String)]) {
        let admin = cluster.url(database: database)
        let initialised = try RunnectProcess.run(["db", "init", "--db", admin])
        #expect(initialised.status == 0, "\(initialised.stderr)")
        let runners = try (0..<runners).map { index -> (String, String) in
            let name = PostgresCluster.uniqueRoleName("r\(index)")
            let added = try RunnectProcess.run(
                ["db", "add-user", name, "--password-stdin", "--db", admin], stdin: "pw \(index)\n")
            #expect(added.status == 0, "\(added.stderr)")
            return (name, cluster.url(database: database, user: name, password: "pw \(index)"))
        }
        return (admin, runners)
    }

    /// One query's single value, as the administrator.
    static func value(_ cluster: PostgresCluster, _ admin: String, _ sql: String) throws -> String {
        let result = try cluster.psql(["-d", admin, "-At", "-c", sql])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What must hold after any import, whole or cut short: no course or record half-stored.
    static func expectWhole(_ cluster: PostgresCluster, _ admin: String) throws {
        #expect(
            try value(
                cluster, admin,
                """
                SELECT count(*) FROM course c
                WHERE NOT EXISTS (SELECT 1 FROM course_search s WHERE s.course_id = c.id)
                   OR c.path IS NULL OR c.record_count <> (SELECT count(*) FROM record r WHERE r.course_id = c.id)
                """) == "0")
    }

    @Test("16 concurrent imports as 8 roles: nothing lost, nothing duplicated, no error reaching a runner")
    func concurrentImports() throws {
        let cluster = try PostgresCluster.get()
        let database = try cluster.makeDatabase(prefix: "load")
        let (admin, runners) = try Self.club(cluster, database: database, runners: 8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-load-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Each runner's two processes import the same 24 runs (so they race on every one), and
        // every runner imports the same 8 common runs too.
        let common = try Self.writeRuns(8, from: 1_000, in: folder.appendingPathComponent("common"))
        var jobs: [(url: String, files: [String])] = []
        for (index, runner) in runners.enumerated() {
            let own = try Self.writeRuns(24, from: index * 24, in: folder.appendingPathComponent(runner.name))
            jobs.append((runner.url, own + common))
            jobs.append((runner.url, (own + common).reversed()))
        }
        // Sixteen threads, one per process, all started before any is awaited: the processes run
        // at once (a dispatch queue would run as many as there are cores).
        let results = Locked([RunnectProcess.Result?](repeating: nil, count: jobs.count))
        let finished = DispatchGroup()
        for (index, job) in jobs.enumerated() {
            finished.enter()
            Thread {
                let result = try? RunnectProcess.run(["import", "--jobs", "1"] + job.files + ["--db", job.url])
                results.update { $0[index] = result }
                finished.leave()
            }.start()
        }
        finished.wait()
        for (index, result) in results.value.enumerated() {
            let result = try #require(result)
            #expect(result.status == 0, "job \(index): \(result.stderr)")
            if result.status != 0 { print("STDERR job \(index): \(result.stderr)") }
            #expect(!result.stderr.lowercased().contains("deadlock") && !result.stderr.contains("error"))
        }
        // Every runner has each of its 32 runs once: as a record, of a course made from it or of
        // a course another process of the same runner made from the same run.
        for runner in runners {
            let records = try Self.value(
                cluster, admin,
                "SELECT count(*), count(DISTINCT content_hash) FROM record WHERE owner = '\(runner.name)'")
            #expect(records == "32|32", "\(runner.name)")
            let courses = try Self.value(
                cluster, admin,
                "SELECT count(*), count(DISTINCT content_hash) FROM course WHERE owner = '\(runner.name)'")
            #expect(courses == "32|32", "\(runner.name)")
        }
        try Self.expectWhole(cluster, admin)
    }

    @Test("the server crashes and restarts mid-import: whole courses only; the import completes or names what it left")
    func crashMidImport() throws {
        let cluster = try PostgresCluster.startPrivate()
        defer { try? cluster.stop() }
        let database = try cluster.makeDatabase(prefix: "crash")
        let (admin, runners) = try Self.club(cluster, database: database, runners: 1)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try Self.writeRuns(600, in: folder)

        let importer = Locked<RunnectProcess.Result?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let result = try? RunnectProcess.run(["import", "--jobs", "1", folder.path, "--db", runners[0].url])
            importer.update { $0 = result }
            done.signal()
        }
        // Once some runs are stored, the server goes down hard and comes back.
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, (Int(try Self.value(cluster, admin, "SELECT count(*) FROM record")) ?? 0) < 60 {
            usleep(20_000)
        }
        let before = Int(try Self.value(cluster, admin, "SELECT count(*) FROM record")) ?? 0
        #expect(before >= 60 && before < files.count, "the crash must come mid-import (\(before) stored)")
        try cluster.crashRestart()
        done.wait()
        let first = try #require(importer.value)
        if first.status != 0 {
            // It stopped: one line says why, then every file not imported is named.
            #expect(first.status == 1)
            #expect(first.stderr.contains("the import stopped:"), "\(first.stderr)")
            let named = first.stderrLines.filter { $0.hasSuffix(": not imported") }
            #expect(!named.isEmpty)
        }
        try Self.expectWhole(cluster, admin)
        // Running it again completes it: every run stored once.
        let again = try RunnectProcess.run(["import", folder.path, "--db", runners[0].url])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(
            try Self.value(cluster, admin, "SELECT count(*), count(DISTINCT content_hash) FROM record") == "600|600")
        try Self.expectWhole(cluster, admin)
    }
}
