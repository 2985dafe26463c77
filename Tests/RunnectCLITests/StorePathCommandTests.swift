import Foundation
import Testing

/// A store path given with `--db` or `RUNNECT_DB` (issue 34, item 14): reading commands and a
/// copy's source open existing stores only; commands that write may create one, in an existing
/// folder. The default store's folder is still made on first use.
@Suite("runnect --db PATH: a mistyped path makes no store (end to end)")
struct StorePathCommandTests {
    typealias Scratch = StoreCommandTests.Scratch

    /// What is in `folder`, recursively.
    static func contents(_ folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test("reading commands on a missing store: exit 66, one line naming the path, no file made")
    func readingCommands() throws {
        let scratch = try Scratch()
        let nope = scratch.folder.appendingPathComponent("nope.sqlite").path
        let commands: [[String]] = [
            ["list"], ["list", "--shared"], ["show", "1"], ["search", "강"], ["records"], ["record", "show", "1"],
            ["export", "geojson", "1"], ["index", scratch.folder.appendingPathComponent("site").path], ["db"],
            ["db", "summary"],
        ]
        for arguments in commands {
            let result = try RunnectProcess.run(arguments + ["--db", nope, "--user", "r"])
            #expect(result.status == 66, "\(arguments): \(result.status) \(result.stderr)")
            #expect(
                result.stderrLines == [
                    "runnect: error: no course database at \(nope); check the path, or import or draw a course to start one"
                ],
                "\(arguments): \(result.stderr)")
            let viaEnvironment = try RunnectProcess.run(arguments + ["--user", "r"], environment: ["RUNNECT_DB": nope])
            #expect(viaEnvironment.status == 66, "\(arguments): \(viaEnvironment.stderr)")
            #expect(Self.contents(scratch.folder) == [], "\(arguments) made \(Self.contents(scratch.folder))")
        }
    }

    @Test("db copy from a missing store: exit 66 naming it, neither store made")
    func copySource() throws {
        let scratch = try Scratch()
        let nope = scratch.folder.appendingPathComponent("nope.sqlite").path
        let to = scratch.folder.appendingPathComponent("to.sqlite").path
        let result = try RunnectProcess.run(["db", "copy", nope, to])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderrLines.count == 1 && result.stderr.contains(nope), "\(result.stderr)")
        #expect(Self.contents(scratch.folder) == [])
    }

    @Test("commands that write create a store in an existing folder; a missing folder is an error naming it")
    func writingCommands() throws {
        let scratch = try Scratch()
        let typo = scratch.folder.appendingPathComponent("typo").path
        let nothere = typo + "/nothere.sqlite"
        let imported = try RunnectProcess.run(
            ["import", "SampleTracks/olympic_park_route.gpx", "--db", nothere, "--user", "r"])
        #expect(imported.status == 66, "\(imported.stderr)")
        #expect(
            imported.stderrLines == [
                "runnect: error: cannot create the course database \(nothere): the folder \(typo) does not exist; "
                    + "create it first or check the path"
            ], "\(imported.stderr)")
        let drawn = try RunnectProcess.run(
            ["draw", "--points", "37.51,127.06 37.52,127.07", "--title", "x", "--db", nothere, "--user", "r"])
        #expect(drawn.status == 66 && drawn.stderr.contains(typo), "\(drawn.stderr)")
        #expect(Self.contents(scratch.folder) == [])

        // In an existing folder a write makes the store; then reading it works.
        let made = try scratch.run(["draw", "--points", "37.51,127.06 37.52,127.07", "--title", "x"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try scratch.objects(["list"]).count == 1)
    }

    @Test("the default store's folder is still made on first use, by a reading command too")
    func defaultStore() throws {
        let scratch = try Scratch()
        let data = scratch.folder.appendingPathComponent("data")
        let listed = try RunnectProcess.run(
            ["list", "--user", "r"], environment: ["RUNNECT_DB": "", "XDG_DATA_HOME": data.path])
        #expect(listed.status == 0 && listed.stdout == "no courses\n", "\(listed.stderr)")
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("runnect/courses.sqlite").path))
    }
}
