import Foundation
import GRDB
import RunnectTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What an audit of untrusted input found, through the built binary: each test fails on the
/// code before the fix.
@Suite("runnect: untrusted input and special files (end to end)")
struct HardeningCommandTests {
    typealias Scratch = StoreCommandTests.Scratch
    static let sample = "SampleTracks/olympic_park_route.gpx"

    static func inode(_ path: String) -> (ino: UInt, mode: UInt32, rdev: UInt)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (UInt(info.st_ino), UInt32(info.st_mode), UInt(info.st_rdev))
    }

    /// After `seconds`, opens `fifo` for writing and closes it, so that a reader blocked on it
    /// (the bug) gets end of file and the test fails instead of hanging.
    static func unblock(_ fifo: String, after seconds: Double) -> DispatchWorkItem {
        let work = DispatchWorkItem {
            let fd = open(fifo, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: work)
        return work
    }

    @Test(
        "export -o DEVICE writes into a null device node the test makes (as /dev/null): same inode and device after, nothing beside it",
        .deviceNodes)
    func exportToDevice() throws {
        let scratch = try Scratch()
        let node = scratch.folder.appendingPathComponent("null").path
        // A null device of the test's own, not the machine's /dev/null: code that regressed would
        // replace it (the audit's finding), for every later `> /dev/null`.
        try #require(DeviceNode.make(node) == 0, "mknod: \(String(cString: strerror(errno)))")
        let before = try #require(Self.inode(node))
        for format in ["geojson", "svg"] {
            let result = try RunnectProcess.run(["export", format, Self.sample, "-o", node])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let after = try #require(Self.inode(node))
        #expect(after.ino == before.ino && after.mode == before.mode && after.rdev == before.rdev)
        #expect(after.mode & UInt32(S_IFMT) == UInt32(S_IFCHR))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.folder.path) == ["null"])
    }

    @Test("export -o FIFO streams through the pipe and leaves it a FIFO, nothing beside it")
    func exportToFIFO() throws {
        let scratch = try Scratch()
        let fifo = scratch.folder.appendingPathComponent("out.geojson").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = FIFOReader(path: fifo)
        let result = try RunnectProcess.run(["export", "geojson", Self.sample, "-o", fifo])
        #expect(result.status == 0, "\(result.stderr)")
        let text = String(decoding: try #require(reader.result()), as: UTF8.self)
        #expect(text.hasPrefix("{") && text.contains("\"LineString\""))
        #expect(Self.inode(fifo).map { $0.mode & UInt32(S_IFMT) == UInt32(S_IFIFO) } == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.folder.path) == ["out.geojson"])
    }

    @Test("import of a folder holding a FIFO of a supported name finishes, says what it skipped, imports the rest")
    func fifoInFolder() throws {
        let scratch = try Scratch()
        let folder = scratch.folder.appendingPathComponent("runs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: PackageFolder.root.appendingPathComponent(Self.sample).path,
            toPath: folder.appendingPathComponent("a.gpx").path)
        let fifo = folder.appendingPathComponent("b.gpx").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let watchdog = Self.unblock(fifo, after: 30)
        defer { watchdog.cancel() }
        let result = try scratch.run(["import", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 imported, 0 already there, 0 failed"), "\(result.stdout)")
        #expect(
            result.stderr.contains("\(fifo): not a regular file (a FIFO, socket or device), skipped"),
            "\(result.stderr)")
    }

    @Test("a FIFO named on the command line is still read: stats <(cat run.gpx)")
    func explicitFIFO() throws {
        let scratch = try Scratch()
        let fifo = scratch.folder.appendingPathComponent("run.gpx").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let bytes = try Data(contentsOf: PackageFolder.root.appendingPathComponent(Self.sample))
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: fifo) {
                handle.write(bytes)
                try? handle.close()
            }
        }
        writer.start()
        let piped = try RunnectProcess.run(["stats", "--json", fifo])
        let plain = try RunnectProcess.run(["stats", "--json", Self.sample])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(
            piped.stdout.replacingOccurrences(of: fifo, with: "F")
                == plain.stdout.replacingOccurrences(of: Self.sample, with: "F"))
    }

    @Test("control characters: typed ones refused with exit 1 and one line; stored ones never printed raw")
    func controlCharacters() throws {
        let scratch = try Scratch()
        let evil = try scratch.run([
            "draw", "--points", "37.51,127.06 37.52,127.07", "--title", "evil\u{1B}]0;pwned\u{07}",
        ])
        #expect(evil.status == 1)
        #expect(
            evil.stderrLines == [
                "runnect: error: the title holds a control character (U+001B at character 5); "
                    + "control characters are not allowed in it, type it without"
            ])
        let user = try scratch.run(["list"], user: "ad\rmin")
        #expect(
            user.status == 1 && user.stderrLines.count == 1
                && user.stderr.contains("user name holds a control character"))

        // A course stored by an older version, with controls in its text, and one owned by a forged name.
        let drawn = try scratch.run(["draw", "--points", "37.51,127.06 37.52,127.07", "--title", "plain"])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        try DatabaseQueue(path: scratch.db).write { db in
            try db.execute(
                sql: "UPDATE course SET title = ?, description = ?, source_format = ?, content_hash = ?",
                arguments: [
                    "\u{1B}[2J\u{1B}]0;x\u{07}title", "line\n#99 forged  by admin\r\u{9B}", "gpx\u{1B}[2J",
                    "\u{1B}]0;pwned\u{07}" + String(repeating: "0", count: 54),
                ])
        }
        // (The search index still holds the title the course was drawn with.)
        for arguments in [["list"], ["show", "1"], ["search", "plain", "--all"]] {
            let result = try scratch.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            let raw = result.stdout.unicodeScalars.filter {
                $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value)
            }
            #expect(raw.isEmpty, "\(arguments) printed raw controls: \(raw.map(\.value))")
            #expect(result.stdout.contains("\\u{1B}[2J\\u{1B}]0;x\\u{7}title"), "\(arguments): \(result.stdout)")
            #expect(!result.stdoutLines.contains { $0.hasPrefix("#99") }, "a forged line: \(result.stdout)")
        }
        // JSON escapes them by itself and keeps the text as stored.
        let json = try scratch.objects(["show", "1"])
        #expect(json.first?["title"] as? String == "\u{1B}[2J\u{1B}]0;x\u{07}title")
    }

    @Test("a long keyword list is a usage error naming the limit, at once, never an SQLite message")
    func keywordLimit() async throws {
        let scratch = try Scratch()
        let words = (0..<2_000).map { "ㅎ\($0)강" }
        let result = try scratch.run(["search"] + words)
        #expect(result.status == 64)
        #expect(result.stderr.contains("2000 keywords given; a search takes at most 16"), "\(result.stderr)")
        #expect(!result.stderr.localizedCaseInsensitiveContains("sqlite"))
        let long = try scratch.run(["search", String(repeating: "가", count: 65)])
        #expect(long.status == 64 && long.stderr.contains("a keyword takes at most 64"), "\(long.stderr)")
        try await scratch.makeStore()
        let atBound = try scratch.run(["search"] + words.prefix(16))
        #expect(atBound.status == 0 && atBound.stdout == "no courses\n", "\(atBound.stderr)")
    }

    @Test(
        "a Strava row leading outside the export is refused by line, the rest import, and 'no extension' has its own column"
    )
    func stravaEscape() throws {
        let scratch = try Scratch()
        let export = scratch.folder.appendingPathComponent("export")
        let activities = export.appendingPathComponent("activities")
        try FileManager.default.createDirectory(at: activities, withIntermediateDirectories: true)
        let source = PackageFolder.root.appendingPathComponent(Self.sample).path
        try FileManager.default.copyItem(atPath: source, toPath: activities.appendingPathComponent("1.gpx").path)
        try FileManager.default.copyItem(
            atPath: source, toPath: scratch.folder.appendingPathComponent("secret.gpx").path)
        try Data("not a course".utf8).write(to: activities.appendingPathComponent("2"))
        try Data(
            """
            Activity ID,Activity Name,Filename
            1,Run,activities/1.gpx
            2,Escape,../secret.gpx
            3,No extension,activities/2

            """.utf8
        ).write(to: export.appendingPathComponent("activities.csv"))
        let result = try scratch.run(["import", export.path])
        #expect(result.status == 65)
        #expect(result.stdout.contains("1 imported, 0 already there, 2 failed"), "\(result.stdout)")
        #expect(
            result.stdoutLines.contains("  gpx           1 imported, 0 already there, 1 failed"), "\(result.stdout)")
        #expect(
            result.stdoutLines.contains("  no extension  0 imported, 0 already there, 1 failed"), "\(result.stdout)")
        #expect(
            result.stderr.contains(
                "activities.csv: line 3: Filename \"../secret.gpx\" is outside the export folder; refused"),
            "\(result.stderr)")
        #expect(try scratch.objects(["list"]).count == 1)
    }
}
