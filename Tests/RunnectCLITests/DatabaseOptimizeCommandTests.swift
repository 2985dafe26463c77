import Foundation
import RunnectTestSupport
import Testing

/// `runnect db optimize` through the built binary: on SQLite the search index merged; on
/// PostgreSQL the near-me box index rebuilt (or built, or a stopped rebuild's leftovers dropped)
/// and the tables vacuumed, by the tables' owner only, with the same answers afterwards.
struct DatabaseOptimizeCommandTests {
    typealias Scratch = StoreCommandTests.Scratch

    static let jamsil = "37.5113,127.0985"

    @Test("SQLite: the search index's segments merged into one; searches answer the same")
    func sqlite() throws {
        let scratch = try Scratch()
        // Courses drawn one by one: each draw's transaction adds a segment of its own.
        let places = [
            "37.5086,127.0885 37.5086,127.1085", "37.5300,127.0000 37.5350,127.0050", "37.6,127.0 37.61,127.0",
        ]
        for (index, taps) in places.enumerated() {
            let drawn = try scratch.run(["draw", "--points", taps, "--title", "잠실 강변 \(index)"])
            #expect(drawn.status == 0, "\(drawn.stderr)")
        }
        let before = try scratch.run(["search", "ㅈㅅ", "--all", "--json"])
        let report = try scratch.objects(["db", "optimize"])
        #expect(report.count == 1)
        #expect(report[0]["backend"] as? String == "sqlite")
        let steps = try #require(report[0]["steps"] as? [[String: Any]])
        #expect(steps.count == 1)
        #expect(steps[0]["name"] as? String == "search index merged")
        #expect(steps[0]["unit"] as? String == "segments")
        #expect((steps[0]["before"] as? Int ?? 0) > 1, "\(steps)")
        #expect(steps[0]["after"] as? Int == 1)
        let after = try scratch.run(["search", "ㅈㅅ", "--all", "--json"])
        #expect(after.status == 0 && after.stdout == before.stdout && before.stdoutLines.count == 3)

        let text = try scratch.run(["db", "optimize"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdoutLines.first == "Database  \(scratch.db)")
        #expect(text.stdoutLines.dropFirst().first?.hasPrefix("  search index merged: 1 → 1 segments in ") == true)
    }

    @Test("PostgreSQL: the tables' owner rebuilds the box index beside runners; a runner is refused", .postgres)
    func postgres() throws {
        let cluster = try PostgresCluster.get()
        let name = try cluster.makeDatabase(prefix: "optimize")
        let admin = cluster.url(database: name)
        @discardableResult func sql(_ text: String) throws -> PostgresCluster.PsqlResult {
            try cluster.psql(["-d", name, "-c", text])
        }
        let idle = try RunnectProcess.run(["db", "optimize", "--db", admin])
        #expect(idle.status == 1)
        #expect(idle.stderr.contains("database \(name) has no Runnect schema; run `runnect db init"), "\(idle.stderr)")

        #expect(try RunnectProcess.run(["db", "init", "--db", admin]).status == 0)
        let minji = PostgresCluster.uniqueRoleName("minji")
        let added = try RunnectProcess.run(
            ["db", "add-user", minji, "--password-stdin", "--db", admin], stdin: "\(minji) pw\n")
        #expect(added.status == 0, "\(added.stderr)")
        let runner = cluster.url(database: name, user: minji, password: "\(minji) pw")
        for (taps, title) in [
            ("37.5086,127.0885 37.5086,127.1085", "잠실 강변 10K"), ("37.5300,127.0000 37.5350,127.0050", "반포 강변"),
            ("35.1587,129.1604 35.1600,129.1650", "해운대 강변"),
        ] {
            let drawn = try RunnectProcess.run(["draw", "--points", taps, "--title", title, "--json", "--db", runner])
            #expect(drawn.status == 0, "\(drawn.stderr)")
        }
        func near() throws -> String {
            let found = try RunnectProcess.run([
                "list", "--near", Self.jamsil, "--within", "20", "--json", "--db", runner,
            ])
            #expect(found.status == 0, "\(found.stderr)")
            return found.stdout
        }
        func boxIndex() throws -> String {
            try sql(
                """
                SELECT pg_relation_filenode(c.oid) || CASE WHEN i.indisvalid THEN ' valid' ELSE ' invalid' END FROM pg_class c
                JOIN pg_index i ON i.indexrelid = c.oid WHERE c.relname = 'course_piece_box'
                """
            ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let answer = try near()
        #expect(answer.split(separator: "\n").count == 2, "\(answer)")
        let index = try boxIndex()
        #expect(index.hasSuffix(" valid"), "\(index)")

        let refused = try RunnectProcess.run(["db", "optimize", "--db", runner])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "role \(minji) does not own the store's tables; run it as \(cluster.admin), who ran `runnect db init`"),
            "\(refused.stderr)")
        #expect(try boxIndex() == index, "nothing rebuilt for a runner")

        let optimized = try RunnectProcess.run(["db", "optimize", "--db", admin])
        #expect(optimized.status == 0, "\(optimized.stderr)")
        #expect(optimized.stdoutLines.count == 3, "\(optimized.stdout)")
        #expect(optimized.stdoutLines.dropFirst().first?.hasPrefix("  near-me box index rebuilt: ") == true)
        #expect(
            optimized.stdoutLines.last?.hasPrefix(
                "  tables vacuumed and analysed (course, course_search, course_piece, record, scrap) in ") == true)
        let rebuilt = try boxIndex()
        #expect(rebuilt.hasSuffix(" valid") && rebuilt != index, "\(index) -> \(rebuilt)")
        #expect(try near() == answer)

        // A rebuild stopped halfway leaves an invalid `_ccnew` (or `_ccold`) index, numbered when
        // one was there already: each dropped by the next run. A failed unique build leaves one.
        for leftover in ["course_piece_box_ccnew", "course_piece_box_ccold1"] {
            let failed = try sql("CREATE UNIQUE INDEX CONCURRENTLY \(leftover) ON course_piece ((true))")
            #expect(failed.stderr.contains("could not create unique index"), "\(failed.stderr)")
        }
        // An index of the same look that is valid is someone else's: left alone.
        try sql("CREATE INDEX course_piece_box_ccnew2 ON course_piece (course_id)")
        // A copy stopped between dropping the box index and building it leaves none: built.
        try sql("DROP INDEX course_piece_box")
        let json = try RunnectProcess.run(["db", "optimize", "--json", "--db", admin])
        #expect(json.status == 0, "\(json.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(report["backend"] as? String == "postgresql")
        let steps = try #require(report["steps"] as? [[String: Any]])
        #expect(steps.count == 2)
        #expect(steps[0]["name"] as? String == "near-me box index built")
        #expect(steps[0]["before"] == nil && (steps[0]["after"] as? Int ?? 0) > 0, "\(steps[0])")
        #expect(steps[0]["unit"] as? String == "bytes")
        #expect(try boxIndex().hasSuffix(" valid"))
        let leftovers = try sql(
            "SELECT string_agg(relname, ' ') FROM pg_class WHERE relname LIKE 'course_piece_box_cc%'")
        #expect(leftovers.stdout == "course_piece_box_ccnew2\n", "\(leftovers.stdout)")
        #expect(try near() == answer)
    }
}
