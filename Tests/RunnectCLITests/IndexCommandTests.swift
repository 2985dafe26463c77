import Foundation
import RunnectTestSupport
import Testing

/// `runnect index` end to end: a real process on a real database.
@Suite("runnect index (end to end)")
struct IndexCommandTests {
    @Test("text and --json summaries, a re-run writes nothing, quiet on a pipe")
    func summaries() throws {
        let scratch = try IndexScratch()
        let site = scratch.folder.appendingPathComponent("site")
        let first = try scratch.run(["index", site.path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.isEmpty, "standard error is a file here, not a terminal: no progress bar")
        let shared = IndexScratch.specs.filter { $0.description != nil }.count
        #expect(
            first.stdoutLines.first
                == "\(shared) shared courses → \(site.path): \(4 + 4 * shared) files written, 0 unchanged, 0 removed")
        #expect(
            first.stdoutLines.last
                == "open \(URL(fileURLWithPath: site.path).appendingPathComponent("index.html").absoluteString)")

        let again = try scratch.objects(["index", site.path])
        #expect(again.count == 1)
        let summary = try #require(again.first)
        #expect(summary["courses"] as? Int == shared && summary["scope"] as? String == "shared")
        #expect(summary["files_written"] as? Int == 0 && summary["files_unchanged"] as? Int == 4 + 4 * shared)
        #expect(summary["files_removed"] as? Int == 0 && summary["folder"] as? String == site.path)

        let all = try #require(try scratch.objects(["index", site.path, "--all"]).first)
        #expect(all["courses"] as? Int == IndexScratch.specs.count && all["scope"] as? String == "all")
        let namsan = try #require(scratch.ids["namsan"])
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("courses/\(namsan).svg").path))
    }

    @Test(
        "on a terminal (a pseudo-terminal from script(1)) a progress bar counts the courses",
        .requires(
            ExternalTool.path("script") != nil,
            "script(1) is not on PATH (Debian: bsdutils); the progress bar on a terminal is not tested"))
    func progressOnTerminal() throws {
        let script = try #require(ExternalTool.path("script"))
        let scratch = try IndexScratch()
        let site = scratch.folder.appendingPathComponent("site")
        let command = [RunnectProcess.executable.path, "index", site.path, "--db", scratch.db]
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = ["-qec", command, "/dev/null"]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try? output.fileHandleForReading.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        let shared = IndexScratch.specs.filter { $0.description != nil }.count
        #expect(text.contains("] \(shared)/\(shared) courses"), "no progress bar in \(text.debugDescription)")
        #expect(text.contains("\r\u{1B}[K\(shared) shared courses"), "the bar is cleared before the summary")
    }

    @Test("a file in the way: one line naming it, exit 73, the file untouched; a bad database: exit 1")
    func refusals() throws {
        let scratch = try IndexScratch()
        let site = scratch.folder.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        let mine = site.appendingPathComponent("courses.json")
        try Data("[1, 2, 3]".utf8).write(to: mine)
        let result = try scratch.run(["index", site.path])
        #expect(result.status == 73)
        #expect(
            result.stderrLines == [
                "runnect: error: \(mine.path) exists and was not written by runnect index; "
                    + "move it away or choose an empty folder (nothing was written)"
            ])
        #expect(try String(contentsOf: mine, encoding: .utf8) == "[1, 2, 3]")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("index.html").path))

        let notDatabase = scratch.folder.appendingPathComponent("not.sqlite")
        try Data("this is not a database, just text that is long enough".utf8).write(to: notDatabase)
        let bad = try RunnectProcess.run(["index", site.appendingPathComponent("other").path, "--db", notDatabase.path])
        #expect(bad.status == 1, "\(bad.stderr)")
        #expect(bad.stderrLines.count == 1 && bad.stderr.hasPrefix("runnect: error: "))
    }
}
