import Foundation
import GRDB
import RunnectTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `runnect serve` when things break (issue 37): SIGTERM under load, `kill -9` during writes, a
/// full disk, slow clients, and (in ``ServePostgresFaultTests``) a PostgreSQL crash. Each test
/// runs the built binary on loopback in a temporary folder, bounded in time; whatever got a 2xx
/// must be stored whole afterwards.
@Suite("runnect serve: faults", .serialized)
struct ServeFaultTests {
    static let secret = ["RUNNECT_TOKEN_SECRET": String(repeating: "f", count: 40)]
    /// The limits are not what these tests are about.
    static let unlimited = ["--writes-per-minute", "0", "--sign-ins-per-minute", "0"]

    @Test func sigtermLetsTheRequestInFlightFinishRefusesNewOnesAndExitsZero() async throws {
        try await withTemporaryDirectory { folder in
            let db = folder.appendingPathComponent("courses.sqlite").path
            let server = try ServeProcess(["--db", db, "--port", "0"] + Self.unlimited, environment: Self.secret)
            let writer = try ServeWriter(
                baseURL: server.baseURL, runner: "minji", arguments: ["--db", db], environment: Self.secret)
            #expect(await writer.drawCourse(1).status == 201)

            // Readers keep the server busy throughout (and, once it stops, find it gone).
            let answered = Locked(0)
            let readers = Task {
                while !Task.isCancelled {
                    if await writer.feed().status == 200 {
                        answered.update { $0 += 1 }
                    } else {
                        try? await Task.sleep(for: .milliseconds(50))
                    }
                }
            }
            let warm = Date().addingTimeInterval(10)
            while answered.value == 0 && Date() < warm { try await Task.sleep(for: .milliseconds(20)) }
            #expect(answered.value > 0, "no feed answered before the signal")
            // An upload in flight: its head and half its body now, the rest after the signal.
            let json = #"{"courseId":1,"title":"느린 기록","time":"00:25:00","pace":"0:08:00"}"#
            let head =
                "POST /api/record HTTP/1.1\r\nHost: 127.0.0.1\r\naccessToken: \(writer.access)\r\n"
                + "refreshToken: \(writer.refresh)\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(json.utf8.count)\r\n\r\n"
            let slow = try RawConnection(server.baseURL)
            let body = Array(json.utf8)
            try slow.send(Array(head.utf8) + body[..<(body.count / 2)])
            try await Task.sleep(for: .milliseconds(300))

            let signalled = Date()
            kill(server.process.processIdentifier, SIGTERM)
            try await Task.sleep(for: .seconds(1))
            // New connections are refused while the one in flight is still being answered.
            #expect(RawConnection.isRefused(server.baseURL), "a new connection after SIGTERM was accepted")
            try slow.send(body[(body.count / 2)...])
            let answer = try await slow.answerOffTheTaskThreads()
            #expect(answer.status == 201, "\(String(decoding: answer.body, as: UTF8.self))")

            let stopped = server.stop(signal: SIGTERM, timeout: 15)
            #expect(stopped.status == 0, "\(server.stderr)")
            #expect(Date().timeIntervalSince(signalled) < 10, "the server took over 10 s to exit")
            readers.cancel()
            await readers.value
        }
    }

    @Test func kill9DuringWritesLosesNothingItAcknowledged() async throws {
        try await withTemporaryDirectory { folder in
            let db = folder.appendingPathComponent("courses.sqlite").path
            let images = folder.appendingPathComponent("images").path
            let arguments = ["--db", db, "--port", "0", "--images", images] + Self.unlimited
            let server = try ServeProcess(arguments, environment: Self.secret)
            let writer = try ServeWriter(
                baseURL: server.baseURL, runner: "minji", arguments: ["--db", db], environment: Self.secret)
            let first = await writer.drawCourse(0)
            let course = try #require(first.id)

            // Four writers, drawing courses and posting records, until the server is killed.
            let acknowledged = Locked<[(kind: String, id: Int64, n: Int)]>([])
            let writers = (0..<4).map { lane in
                Task {
                    var n = lane * 100_000
                    while !Task.isCancelled {
                        n += 1
                        let drawing = n % 3 == 0
                        let answer = drawing ? await writer.drawCourse(n) : await writer.postRecord(course: course, n)
                        guard answer.status != 0 else { return }
                        if answer.status == 201, let id = answer.id {
                            acknowledged.update { $0.append((drawing ? "course" : "record", id, n)) }
                        }
                    }
                }
            }
            // Killed once a dozen writes are acknowledged (a second and a half on an idle
            // machine; up to 30 s while the machine is busy: every commit waits for the disk).
            let deadline = ContinuousClock.now + .seconds(30)
            repeat {
                try await Task.sleep(for: .milliseconds(250))
            } while acknowledged.value.count < 12 && ContinuousClock.now < deadline
            _ = server.stop(signal: SIGKILL)
            for task in writers { await task.value }
            let acknowledgedWrites = acknowledged.value
            #expect(acknowledgedWrites.count > 10, "too few writes before the kill to tell anything")

            // The store passes its integrity check (`runnect db check`, images included), and
            // holds every acknowledged write, whole.
            let check = try RunnectProcess.run(["db", "check", "--db", db, "--images", images])
            #expect(check.status == 0, "\(check.stderr)")
            let queue = try DatabaseQueue(path: db)
            try await queue.write { db in
                #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
                #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
                try db.execute(
                    sql: "INSERT INTO course_search_token (course_search_token) VALUES ('integrity-check')")
            }
            try await queue.read { db in
                for write in acknowledgedWrites {
                    let table = write.kind
                    let row = try Row.fetchOne(db, sql: "SELECT * FROM \(table) WHERE id = ?", arguments: [write.id])
                    let title = write.kind == "course" ? "코스 \(write.n)" : "기록 \(write.n)"
                    #expect(row?["title"] == title, "\(write.kind) \(write.id) acknowledged but not stored whole")
                    if write.kind == "course" {
                        let image: String? = row?["image"]
                        #expect(
                            image.map { FileManager.default.fileExists(atPath: "\(images)/\($0)") } == true,
                            "course \(write.id) has no image file")
                    }
                }
                // Nothing half-stored: every drawn course of the app has its image and its path.
                let missing = try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM course WHERE source_format = 'points' AND image IS NULL")
                #expect(missing == 0)
            }
            try queue.close()

            // A restart serves them again.
            let again = try ServeProcess(arguments, environment: Self.secret)
            let listed = try await again.request(
                "GET", "/api/record/user", headers: ["accessToken": writer.access, "refreshToken": writer.refresh])
            #expect(listed.status == 200)
            #expect(again.stop().status == 0)
        }
    }

    @Test(.requires(Self.canMountTmpfs, "mounting a tmpfs needs root (CAP_SYS_ADMIN)"))
    func aFullDiskRefusesWritesWith507KeepsReadingAndRecoversWithoutARestart() async throws {
        let mount = try TemporaryFolder("runnect-full-disk")
        let point = mount.path("disk")
        try FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: false)
        #expect(Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", point]) == 0)
        defer { _ = Self.run("/bin/umount", [point]) }

        let db = "\(point)/courses.sqlite"
        let images = "\(point)/images"
        let server = try ServeProcess(
            ["--db", db, "--port", "0", "--images", images] + Self.unlimited, environment: Self.secret)
        let writer = try ServeWriter(
            baseURL: server.baseURL, runner: "minji", arguments: ["--db", db], environment: Self.secret)
        let course = try #require(await writer.drawCourse(0).id)
        #expect(await writer.postRecord(course: course, 0).status == 201)

        // Fill the disk to its last byte with a file of the test's own.
        let filler = "\(point)/filler"
        let handle = try #require(
            FileHandle(forWritingAtPath: filler)
                ?? { () -> FileHandle? in
                    _ = FileManager.default.createFile(atPath: filler, contents: nil)
                    return FileHandle(forWritingAtPath: filler)
                }())
        let chunk = [UInt8](repeating: 0x55, count: 4096)
        while chunk.withUnsafeBytes({ write(handle.fileDescriptor, $0.baseAddress, $0.count) }) > 0 {}
        try handle.close()

        // Writes are refused (507, or 503) until one fails for want of space; reads go on.
        var refused = 0
        var acknowledged: [Int64] = []
        for n in 1...200 where refused < 3 {
            let answer = n % 2 == 0 ? await writer.drawCourse(n) : await writer.postRecord(course: course, n)
            switch answer.status {
            case 201: acknowledged.append(answer.id ?? -1)
            case 507, 503: refused += 1
            default: Issue.record("a write on a full disk answered \(answer.status)")
            }
        }
        #expect(refused > 0, "no write was refused on a full disk")
        #expect(await writer.feed().status == 200, "reads stop on a full disk")

        // Space again: writes succeed without a restart.
        try FileManager.default.removeItem(atPath: filler)
        #expect(await writer.postRecord(course: course, 1_000).status == 201)
        #expect(await writer.drawCourse(1_001).status == 201)
        #expect(server.stop().status == 0)

        // Nothing half-written: no partial image, the store intact, every acknowledged record there.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: images).filter { $0.hasSuffix(".part") }
        #expect(leftovers.isEmpty, "\(leftovers)")
        let check = try RunnectProcess.run(["db", "check", "--db", db, "--images", images])
        #expect(check.status == 0, "\(check.stderr)")
        let queue = try DatabaseQueue(path: db)
        let stored = acknowledged
        try await queue.read { db in
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            for id in stored {
                let found =
                    try Int.fetchOne(
                        db,
                        sql:
                            "SELECT count(*) FROM (SELECT id FROM record WHERE id = ?1 UNION ALL SELECT id FROM course WHERE id = ?1)",
                        arguments: [id]) ?? 0
                #expect(found > 0, "write \(id) acknowledged but not stored")
            }
        }
        try queue.close()
    }

    @Test func slowAndIdleClientsDoNotStarveOthers() async throws {
        try await withTemporaryDirectory { folder in
            let db = folder.appendingPathComponent("courses.sqlite").path
            let server = try ServeProcess(["--db", db, "--port", "0"] + Self.unlimited, environment: Self.secret)
            let writer = try ServeWriter(
                baseURL: server.baseURL, runner: "minji", arguments: ["--db", db], environment: Self.secret)
            for n in 0..<20 { _ = await writer.drawCourse(n) }

            func feedP99() async -> Double {
                let times = await withTaskGroup(of: [Double].self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            var times: [Double] = []
                            for _ in 0..<100 { times.append(await writer.feed().seconds) }
                            return times
                        }
                    }
                    return await group.reduce(into: []) { $0 += $1 }
                }.sorted()
                return times[times.count * 99 / 100]
            }
            _ = await feedP99()  // warm up
            let alone = await feedP99()

            // 200 idle connections, and one sending a request a byte a second.
            let idle = try (0..<200).map { _ in try RawConnection(server.baseURL) }
            let slow = try RawConnection(server.baseURL)
            let trickle = Task {
                for byte in Array("GET /api/public-course?pageNo=1 HTTP/1.1\r\nHost: x\r\n".utf8) {
                    guard !Task.isCancelled, (try? slow.send([byte])) != nil else { return }
                    try? await Task.sleep(for: .seconds(1))
                }
            }
            try await Task.sleep(for: .milliseconds(500))
            let crowded = await feedP99()
            trickle.cancel()
            // Twice the time alone, with 10 ms of room for a debug build's noise on a loaded machine.
            #expect(crowded <= max(2 * alone, alone + 0.010), "p99 \(crowded) s with slow clients, \(alone) s without")
            #expect(idle.count == 200)
            #expect(server.stop().status == 0)
        }
    }

    static let canMountTmpfs: Bool = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/mount")

    static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        do {
            try process.run()
        } catch {
            return -1
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
