import Foundation
import GRDB
import RunnectTestSupport
import Testing

/// `runnect db check` through the built binary: `ok` and exit 0 on a store the store wrote;
/// exit 65 with each problem a line on standard error once the store is damaged beneath it;
/// 66 for a store or an images folder that is not there; on PostgreSQL the tables' owner's.
struct DatabaseCheckCommandTests {
    typealias Scratch = StoreCommandTests.Scratch

    @Test("a store the store wrote is ok; its JSON says so")
    func clean() throws {
        let scratch = try Scratch()
        #expect(try scratch.run(["import", "SampleTracks"]).status == 0)
        let images = scratch.folder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: false)
        let text = try scratch.run(["db", "check", "--images", images.path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stderr.isEmpty)
        #expect(text.stdoutLines.first == "Database  \(scratch.db)")
        #expect(text.stdoutLines.contains { $0.hasPrefix("  search index grams ") && $0.hasSuffix("ok (7 examined)") })
        #expect(text.stdoutLines.contains { $0.hasPrefix("  images ") && $0.hasSuffix("ok (0 examined)") })
        #expect(text.stdoutLines.last == "ok")

        let json = try scratch.objects(["db", "check"])
        #expect(json.count == 1)
        #expect(json[0]["ok"] as? Bool == true)
        #expect(json[0]["backend"] as? String == "sqlite")
        let names = (json[0]["checks"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(
            names == [
                "SQLite integrity_check", "foreign keys", "spatial indexes", "search index structure",
                "search index grams", "search entries", "counters", "records' courses",
            ])
    }

    @Test("damage beneath the store: exit 65, each problem named on standard error")
    func damaged() throws {
        let scratch = try Scratch()
        #expect(try scratch.run(["import", "SampleTracks"]).status == 0)
        let images = scratch.folder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: false)
        let image = "0123456789abcdef0123456789abcdef.jpg"
        try DatabaseQueue(path: scratch.db).write { db in
            try db.execute(sql: "UPDATE course_search SET title = 'zzz qq' WHERE course_id = 2")
            try db.execute(sql: "UPDATE course SET image = ? WHERE id = 3", arguments: [image])
        }
        let result = try scratch.run(["db", "check", "--images", images.path])
        #expect(result.status == 65)
        #expect(result.stdoutLines.last == "3 problem(s)", "\(result.stdout)")
        #expect(
            result.stderrLines == [
                "runnect: error: search index grams: the search index lists course #2 under a gram its search text "
                    + "does not hold (t09pt): searches may find it wrongly",
                "runnect: error: search index grams: the search index lacks a gram of course #2's search text "
                    + "(t0035): searches may miss it",
                "runnect: error: images: course #3's image \(image) is not in \(images.path)",
            ], "\(result.stderr)")

        // The image put back: only the search entry is left.
        try Data([0xFF, 0xD8, 0xFF]).write(to: images.appendingPathComponent(image))
        let json = try scratch.run(["db", "check", "--images", images.path, "--json"])
        #expect(json.status == 65)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(report["ok"] as? Bool == false)
        let failing = (report["checks"] as? [[String: Any]])?.filter { ($0["problem_count"] as? Int ?? 0) > 0 }
        #expect(failing?.map { $0["name"] as? String } == ["search index grams"])
    }

    @Test("a store or an images folder that is not there: exit 66, one line")
    func missing() throws {
        let scratch = try Scratch()
        let noStore = try scratch.run(["db", "check"])
        #expect(noStore.status == 66)
        #expect(noStore.stderrLines.count == 1 && noStore.stderr.contains("no course database at"))
        #expect(!FileManager.default.fileExists(atPath: scratch.db), "a check makes no store")
        #expect(try scratch.run(["import", "SampleTracks/olympic_park_route.gpx"]).status == 0)
        let noImages = try scratch.run(["db", "check", "--images", scratch.folder.appendingPathComponent("nope").path])
        #expect(noImages.status == 66)
        #expect(noImages.stderrLines.count == 1 && noImages.stderr.contains("--images"), "\(noImages.stderr)")
    }

    @Test("PostgreSQL: the tables' owner checks the store; a runner is refused", .postgres)
    func postgres() throws {
        let cluster = try PostgresCluster.get()
        let name = try cluster.makeDatabase(prefix: "check")
        let admin = cluster.url(database: name)
        #expect(try RunnectProcess.run(["db", "init", "--db", admin]).status == 0)
        let minji = PostgresCluster.uniqueRoleName("minji")
        let added = try RunnectProcess.run(
            ["db", "add-user", minji, "--password-stdin", "--db", admin], stdin: "\(minji) pw\n")
        #expect(added.status == 0, "\(added.stderr)")
        let runner = cluster.url(database: name, user: minji, password: "\(minji) pw")
        #expect(try RunnectProcess.run(["import", "SampleTracks", "--db", runner]).status == 0)

        let checked = try RunnectProcess.run(["db", "check", "--db", admin])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stdoutLines.contains { $0.hasPrefix("  search tokens ") && $0.hasSuffix("ok (7 examined)") })
        #expect(checked.stdoutLines.contains { $0.hasPrefix("  B-tree indexes (amcheck) ") })
        #expect(checked.stdoutLines.last == "ok")

        let refused = try RunnectProcess.run(["db", "check", "--db", runner])
        #expect(refused.status == 1)
        #expect(refused.stderrLines.count == 1 && refused.stderr.contains("does not own the store's tables"))

        _ = try cluster.psql(["-d", name, "-c", "UPDATE course_search SET tokens = ARRAY['t0'] WHERE course_id = 4"])
        let damaged = try RunnectProcess.run(["db", "check", "--db", admin])
        #expect(damaged.status == 65)
        #expect(
            damaged.stderrLines == [
                "runnect: error: search tokens: course #4's search tokens are not those of its text: "
                    + "searches may miss or wrongly find it"
            ], "\(damaged.stderr)")
    }
}
