import Foundation
import GRDB
import RunnectTestSupport
import Testing

/// `scripts/backup.sh` and `scripts/restore.sh` on a SQLite store (issue 37): a backup taken
/// while four runners write through `runnect serve` restores to a store that passes
/// `runnect db check --images` and holds, whole, every course and record acknowledged before the
/// backup began, with each course's image; a server on the restored store, images and secret
/// answers a token issued before the backup.
@Suite(
    "scripts/backup.sh and restore.sh (end to end)",
    .requires(
        ExternalTool.path("sqlite3") != nil && ExternalTool.path("sha256sum") != nil,
        "sqlite3 or sha256sum is missing (scripts/setup.sh --test installs sqlite3)"))
struct BackupScriptTests {
    static let backup = PackageFolder.url("scripts/backup.sh").path
    static let restore = PackageFolder.url("scripts/restore.sh").path

    /// A 1×1 PNG: what the server keeps as it is (no metadata to strip).
    static let png = Data(
        base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!

    /// A write the server acknowledged: what was sent, the id it answered, and when.
    struct Acknowledged: Sendable {
        enum Kind: Sendable { case course, record }
        var kind: Kind
        var id: Int64
        var title: String
        var sent: Date
        var answered: Date
    }

    /// A runner's tokens, as `runnect serve token NAME` prints them.
    struct Tokens: Decodable, Sendable {
        var accessToken: String
        var refreshToken: String

        var headers: [String: String] { ["accessToken": accessToken, "refreshToken": refreshToken] }
    }

    /// Runs a script (or any program) off the cooperative pool, which the writers keep busy.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> RunnectProcess.Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result {
                        try RunnectProcess.run(
                            Array(arguments.dropFirst()), environment: environment,
                            binary: URL(fileURLWithPath: arguments[0]))
                    })
            }
        }
    }

    static func tokens(_ name: String, db: String, secret: String) throws -> Tokens {
        let issued = try RunnectProcess.run(["serve", "token", name, "--db", db, "--token-secret-file", secret])
        #expect(issued.status == 0, "\(issued.stderr)")
        return try JSONDecoder().decode(Tokens.self, from: Data(issued.stdout.utf8))
    }

    /// `POST /api/course` as the app sends it: the image part, then the data part.
    static func drawing(title: String, seed: Int) throws -> (body: Data, contentType: String) {
        let boundary = "runnect.backup.\(UUID().uuidString)"
        let lat = 37.50 + Double(seed % 500) * 0.0002
        let data: [String: Any] = [
            "path": [
                ["latitude": lat, "longitude": 126.97], ["latitude": lat + 0.005, "longitude": 126.97],
                ["latitude": lat + 0.005, "longitude": 126.976], ["latitude": lat, "longitude": 126.976],
            ],
            "title": title, "distance": 1.6, "departureAddress": "서울 중구 회현동 1", "departureName": "서울역",
        ]
        var body = Data()
        body.append(
            Data(
                ("--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"; filename=\"map.png\"\r\n"
                    + "Content-Type: image/png\r\n\r\n").utf8))
        body.append(png)
        body.append(
            Data(
                "\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"data\"\r\nContent-Type: application/json\r\n\r\n"
                    .utf8))
        body.append(try JSONSerialization.data(withJSONObject: data))
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        return (body, "multipart/form-data; boundary=\(boundary)")
    }

    /// The id in a 201's envelope: `data.id` (a course) or `data.record.id` (a record).
    static func createdID(_ body: Data) -> Int64? {
        guard let envelope = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let data = envelope["data"] as? [String: Any]
        else { return nil }
        let item = (data["record"] as? [String: Any]) ?? data
        return (item["id"] as? NSNumber)?.int64Value
    }

    /// One runner drawing courses and recording a run of each until `stop`, every acknowledged
    /// write noted; any other answer than 201 is an issue.
    static func writer(
        _ index: Int, server: ServeProcess, tokens: Tokens, stop: Locked<Bool>, acknowledged: Locked<[Acknowledged]>
    ) async throws {
        var count = 0
        while !stop.value {
            count += 1
            let title = "w\(index) course \(count)"
            let (body, contentType) = try drawing(title: title, seed: index * 1_000 + count)
            var sent = Date()
            let drawn = try await server.request(
                "POST", "/api/course", headers: tokens.headers.merging(["Content-Type": contentType]) { $1 },
                body: body)
            guard drawn.status == 201, let course = createdID(drawn.body) else {
                Issue.record("POST /api/course: \(drawn.status) \(String(decoding: drawn.body, as: UTF8.self))")
                return
            }
            acknowledged.update {
                $0.append(Acknowledged(kind: .course, id: course, title: title, sent: sent, answered: Date()))
            }

            if stop.value { return }
            let record = "w\(index) run \(count)"
            let run: [String: Any] = ["courseId": course, "title": record, "time": "0:10:00", "pace": "0:06:00"]
            sent = Date()
            let recorded = try await server.request(
                "POST", "/api/record", headers: tokens.headers.merging(["Content-Type": "application/json"]) { $1 },
                body: try JSONSerialization.data(withJSONObject: run))
            guard recorded.status == 201, let id = createdID(recorded.body) else {
                Issue.record("POST /api/record: \(recorded.status) \(String(decoding: recorded.body, as: UTF8.self))")
                return
            }
            acknowledged.update {
                $0.append(Acknowledged(kind: .record, id: id, title: record, sent: sent, answered: Date()))
            }
        }
    }

    @Test(.timeLimit(.minutes(4)))
    func aBackupUnderWritesRestoresEveryAcknowledgedWrite() async throws {
        let folder = try TemporaryFolder("runnect-backup")
        let db = folder.path("club.sqlite")
        let images = folder.path("club-images")
        let secret = folder.path("token-secret")
        try Data((0..<48).map { _ in UInt8.random(in: 0x61...0x7A) }).write(to: URL(fileURLWithPath: secret))
        let binary = RunnectProcess.executable.path

        let server = try ServeProcess([
            "--db", db, "--port", "0", "--token-secret-file", secret, "--writes-per-minute", "0",
        ])
        let tokens = try (0..<4).map { try Self.tokens("writer\($0)", db: db, secret: secret) }

        // Four writers until a few writes are acknowledged (a second and a half at least; longer
        // on a machine loaded by the rest of the suite, where the server's commits wait for the
        // disk), then the backup while they go on.
        let stop = Locked(false)
        let acknowledged = Locked<[Acknowledged]>([])
        let writers = (0..<4).map { index in
            Task {
                try await Self.writer(
                    index, server: server, tokens: tokens[index], stop: stop, acknowledged: acknowledged)
            }
        }
        try await Task.sleep(for: .milliseconds(1_500))
        let enough = Date().addingTimeInterval(60)
        while acknowledged.value.filter({ $0.kind == .course }).isEmpty || acknowledged.value.count < 4,
            Date() < enough
        {
            try await Task.sleep(for: .milliseconds(50))
        }
        // A hard stop, whatever happens below: the writers never outlast 10 s from here.
        let started = Date()
        let deadline = Task {
            try? await Task.sleep(for: .seconds(10))
            stop.update { $0 = true }
        }
        let backupBegan = Date()
        let backedUp = try await Self.run([
            Self.backup, "--db", db, "--token-secret-file", secret, folder.path("backup"),
        ])
        let backupEnded = Date()
        try await Task.sleep(for: .milliseconds(500))
        stop.update { $0 = true }
        for writer in writers { try await writer.value }
        deadline.cancel()
        // Stopped at 10 s at the latest, the requests in flight then answered (a commit waits
        // for the disk: seconds on a machine loaded by the whole suite, 13.9 s once in CI).
        #expect(Date().timeIntervalSince(started) < 30, "the writers stop within their 10 s and their last requests")
        #expect(backedUp.status == 0, "\(backedUp.stderr)")
        #expect(backedUp.stdout.hasPrefix("backed up sqlite store \(db)"), "\(backedUp.stdout)")
        #expect(server.stop().status == 0)

        let writes = acknowledged.value
        let before = writes.filter { $0.answered < backupBegan }
        let during = writes.filter { $0.sent < backupEnded && $0.answered > backupBegan }
        #expect(before.count >= 4, "writes acknowledged before the backup: \(before.count)")
        #expect(!during.isEmpty, "no write was under way while the backup ran")

        // Restored into a new folder and checked there by the script itself.
        let restored = folder.path("restored")
        let restoring = try await Self.run([Self.restore, "--runnect", binary, folder.path("backup"), restored])
        #expect(restoring.status == 0, "\(restoring.stdout)\(restoring.stderr)")
        #expect(restoring.stdoutLines.contains("ok"), "\(restoring.stdout)")
        let check = try RunnectProcess.run([
            "db", "check", "--db", "\(restored)/courses.sqlite", "--images", "\(restored)/courses-images",
        ])
        #expect(check.status == 0 && check.stdoutLines.last == "ok", "\(check.stdout)\(check.stderr)")

        // Every course and record acknowledged before the backup began is there, whole, with
        // its image: as the live store has it.
        let live = try DatabaseQueue(path: db)
        let copy = try DatabaseQueue(path: "\(restored)/courses.sqlite")
        for write in before {
            switch write.kind {
            case .course:
                let sql = "SELECT title, distance_m, image, owner FROM course WHERE id = ?"
                let original = try #require(try live.read { try Row.fetchOne($0, sql: sql, arguments: [write.id]) })
                let row = try #require(
                    try copy.read { try Row.fetchOne($0, sql: sql, arguments: [write.id]) },
                    "course #\(write.id) acknowledged before the backup is not in it")
                #expect(row["title"] as String == write.title)
                #expect(row["distance_m"] as Double == original["distance_m"] as Double)
                #expect((row["distance_m"] as Double) > 1_000)
                #expect(row["owner"] as String == original["owner"] as String)
                let image = try #require(row["image"] as String?)
                #expect(image == original["image"] as String)
                #expect(
                    try Data(contentsOf: URL(fileURLWithPath: "\(restored)/courses-images/\(image)"))
                        == Data(contentsOf: URL(fileURLWithPath: "\(images)/\(image)")))
            case .record:
                let sql = "SELECT title, course_id, course_time_s FROM record WHERE id = ?"
                let row = try #require(
                    try copy.read { try Row.fetchOne($0, sql: sql, arguments: [write.id]) },
                    "record:\(write.id) acknowledged before the backup is not in it")
                #expect(row["title"] as String == write.title)
                #expect(row["course_time_s"] as Double == 600)
            }
        }

        // A server on what was restored knows a token issued before the backup: the secret came.
        let again = try ServeProcess([
            "--db", "\(restored)/courses.sqlite", "--port", "0", "--token-secret-file", "\(restored)/token-secret",
        ])
        let me = try await again.request("GET", "/api/user", headers: tokens[0].headers)
        #expect(me.status == 200, "\(String(decoding: me.body, as: UTF8.self))")
        let course = try #require(before.first { $0.kind == .course })
        let image = try #require(
            try await copy.read { db -> String? in
                try String.fetchOne(db, sql: "SELECT image FROM course WHERE id = ?", arguments: [course.id])
            })
        let served = try await again.request("GET", "/images/\(image)")
        #expect(served.status == 200 && served.body == Self.png)
        #expect(again.stop().status == 0)
    }

    @Test("a .tar without the secret; what is there already is never replaced")
    func aTarAndWhatIsNeverReplaced() async throws {
        let folder = try TemporaryFolder("runnect-backup-tar")
        let db = folder.path("courses.sqlite")
        #expect(
            try RunnectProcess.run(["import", "SampleTracks/olympic_park_route.gpx", "--db", db, "--user", "minji"])
                .status == 0)
        try FileManager.default.createDirectory(
            atPath: folder.path("courses-images"), withIntermediateDirectories: false)

        let usage = try await Self.run([Self.backup, "--db", db])
        #expect(usage.status == 64 && usage.stderr.hasPrefix("usage: scripts/backup.sh"), "\(usage.stderr)")
        let noSecret = try await Self.run([Self.backup, "--db", db, folder.path("b")])
        #expect(noSecret.status == 64 && noSecret.stderr.contains("--no-secret"), "\(noSecret.stderr)")

        let tar = folder.path("backup.tar")
        let made = try await Self.run([Self.backup, "--db", db, "--no-secret", tar])
        #expect(made.status == 0, "\(made.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: tar))
        let again = try await Self.run([Self.backup, "--db", db, "--no-secret", tar])
        #expect(again.status == 73 && again.stderr.contains("exists"), "\(again.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: tar)) == bytes, "the backup there is left as it was")

        let restored = folder.path("restored")
        let binary = RunnectProcess.executable.path
        let restoring = try await Self.run([Self.restore, "--runnect", binary, tar, restored])
        #expect(restoring.status == 0, "\(restoring.stdout)\(restoring.stderr)")
        #expect(restoring.stdout.contains("the backup holds no secret"))
        let listed = try RunnectProcess.run(["list", "--db", "\(restored)/courses.sqlite", "--user", "minji"])
        #expect(listed.stdoutLines.count == 1 && listed.stdout.contains("올림픽공원 둘레길"), "\(listed.stdout)")
        let twice = try await Self.run([Self.restore, "--runnect", binary, tar, restored])
        #expect(twice.status == 73, "\(twice.stderr)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter {
            $0.hasPrefix(".")
        }
        #expect(leftovers.isEmpty, "the scripts' working folders are gone: \(leftovers)")
    }

    /// PostgreSQL: the dump, the roles, the images and the secret, restored into a new database
    /// of the same cluster (whose roles are there) and of another cluster (where restore.sh makes
    /// them): each passes `db check --images`, and the runner reads the same courses with the
    /// same password.
    @Test("PostgreSQL: restored into a new database here and on another cluster", .postgres)
    func postgres() async throws {
        let cluster = try PostgresCluster.get()
        let name = try cluster.makeDatabase(prefix: "backup")
        let admin = cluster.url(database: name)
        let server = PostgresCluster.uniqueRoleName("server")
        let initialised = try RunnectProcess.run(
            ["db", "init", "--db", admin, "--server-role", server, "--password-stdin"], stdin: "\(server) pw\n")
        #expect(initialised.status == 0, "\(initialised.stderr)")
        let minji = PostgresCluster.uniqueRoleName("minji")
        let added = try RunnectProcess.run(
            ["db", "add-user", minji, "--password-stdin", "--db", admin], stdin: "\(minji) pw\n")
        #expect(added.status == 0, "\(added.stderr)")
        let runner = { (cluster: PostgresCluster, database: String) in
            cluster.url(database: database, user: minji, password: "\(minji) pw")
        }
        #expect(try RunnectProcess.run(["import", "SampleTracks", "--db", runner(cluster, name)]).status == 0)
        let folder = try TemporaryFolder("runnect-backup-pg")
        let images = folder.path("images")
        try FileManager.default.createDirectory(atPath: images, withIntermediateDirectories: false)
        let image = "0123456789abcdef0123456789abcdef.png"
        try Self.png.write(to: URL(fileURLWithPath: "\(images)/\(image)"))
        let named = try cluster.psql(["-d", name, "-c", "UPDATE course SET image = '\(image)' WHERE id = 2"])
        #expect(named.status == 0, "\(named.stderr)")
        let secret = folder.path("token-secret")
        try Data(String(repeating: "k", count: 40).utf8).write(to: URL(fileURLWithPath: secret))
        let tools = ["RUNNECT_PG_BIN": cluster.binDirectory]

        let backup = folder.path("backup")
        let made = try await Self.run(
            [Self.backup, "--db", admin, "--images", images, "--token-secret-file", secret, backup], environment: tools)
        #expect(made.status == 0, "\(made.stderr)")
        let roles = try String(contentsOfFile: "\(backup)/roles.sql", encoding: .utf8)
        #expect(roles.contains("CREATE ROLE \(minji);") && roles.contains("CREATE ROLE \(server);"))
        let listed = try RunnectProcess.run(["list", "--json", "--db", runner(cluster, name)])
        #expect(listed.stdoutLines.count == 7)

        let binary = RunnectProcess.executable.path
        let here = "restored_\(name)"
        let restoredHere = try await Self.run(
            [Self.restore, "--runnect", binary, "--db", cluster.url(database: here), backup, folder.path("here")],
            environment: tools)
        #expect(restoredHere.status == 0, "\(restoredHere.stdout)\(restoredHere.stderr)")
        #expect(restoredHere.stdout.contains("made 0 role(s)") && restoredHere.stdoutLines.contains("ok"))
        #expect(try RunnectProcess.run(["list", "--json", "--db", runner(cluster, here)]).stdout == listed.stdout)
        let twice = try await Self.run(
            [Self.restore, "--runnect", binary, "--db", cluster.url(database: here), backup, folder.path("again")],
            environment: tools)
        #expect(twice.status == 73 && twice.stderr.contains("database \(here) exists"), "\(twice.stderr)")

        let other = try PostgresCluster.startPrivate()
        defer { try? other.stop() }
        let restoredThere = try await Self.run(
            [Self.restore, "--runnect", binary, "--db", other.url(database: "club"), backup, folder.path("there")],
            environment: ["RUNNECT_PG_BIN": other.binDirectory])
        #expect(restoredThere.status == 0, "\(restoredThere.stdout)\(restoredThere.stderr)")
        #expect(restoredThere.stdoutLines.contains("ok"))
        let madeRoles = try String(contentsOfFile: folder.path("there/roles-made.sql"), encoding: .utf8)
        #expect(madeRoles.contains("CREATE ROLE \(minji);") && madeRoles.contains("GRANT runnect_server TO \(server)"))
        #expect(try RunnectProcess.run(["list", "--json", "--db", runner(other, "club")]).stdout == listed.stdout)
    }
}
