import Foundation
import Testing

/// `runnect db copy FROM TO` through the built binary (SQLite to SQLite here; PostgreSQL in the
/// backends' suites).
@Suite("runnect db copy")
struct DatabaseCopyCommandTests {
    @Test("copies, says what it copied, copies nothing the second time; piped, no progress bar")
    func copyTwice() throws {
        let scratch = try StoreCommandTests.Scratch()
        let lake = try scratch.objects([
            "draw", "--points-file", "SampleTracks/seokchon_lake_tapped.json", "--title", "석촌호수 한 바퀴",
        ])[0]
        let lakeID = "\(lake["id"]!)"
        _ = try scratch.objects(["upload", lakeID, "--title", "석촌호수 한 바퀴", "--description", "호수 둘레"])
        _ = try scratch.objects(["scrap", lakeID], user: "friend")
        _ = try scratch.objects(["draw", "--points", "37.51,127.06 37.512,127.062", "--title", "강변"], user: "friend")
        let to = scratch.folder.appendingPathComponent("copy.sqlite").path

        let first = try RunnectProcess.run(["db", "copy", scratch.db, to])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.isEmpty, "no progress bar when standard error is not a terminal")
        #expect(
            first.stdout
                == "copied 2 course(s), 0 record(s), 1 scrap(s) of 2 user(s); already there: 0 course(s), "
                + "0 record(s), 0 scrap(s)\n")
        let again = try RunnectProcess.run(["db", "copy", scratch.db, to, "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        let summary = try #require(JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Int])
        #expect(summary["courses"] == 0 && summary["courses_present"] == 2 && summary["scraps_present"] == 1)

        // The copy shows the same courses to each user, under the same ids.
        for user in ["runner", "friend"] {
            let original = try RunnectProcess.run(["list", "--shared", "--json", "--db", scratch.db, "--user", user])
            let copied = try RunnectProcess.run(["list", "--shared", "--json", "--db", to, "--user", user])
            #expect(original.status == 0 && copied.status == 0)
            #expect(copied.stdout == original.stdout && !original.stdout.isEmpty)
        }
    }

    @Test("a store cannot be copied onto itself, nor onto another store's rows")
    func refusals() throws {
        let scratch = try StoreCommandTests.Scratch()
        _ = try scratch.objects(["draw", "--points", "37.51,127.06 37.512,127.062", "--title", "강변"])
        let same = try RunnectProcess.run(["db", "copy", scratch.db, scratch.db])
        #expect(same.status == 64 && same.stderr.contains("FROM and TO are the same store"))

        let other = try StoreCommandTests.Scratch()
        _ = try other.objects(["draw", "--points", "37.6,127.1 37.61,127.11", "--title", "다른"], user: "jisoo")
        let conflict = try RunnectProcess.run(["db", "copy", scratch.db, other.db])
        #expect(conflict.status == 1)
        #expect(
            conflict.stderr.contains("course #1 of the destination is jisoo's")
                && conflict.stderr.hasPrefix("runnect: error:"), "\(conflict.stderr)")
    }
}
