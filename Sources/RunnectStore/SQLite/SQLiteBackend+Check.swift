import Foundation
import GRDB

extension SQLiteBackend {
    /// `runnect db check` on SQLite (``CourseStore/check(imagesFolder:)`` says what is checked).
    ///
    /// The FTS5 `integrity-check` is a write statement, so it runs alone on the writer, as one
    /// short write; every other check reads one snapshot on a reader, so a server goes on
    /// writing meanwhile and no write it makes half-way through is taken for a problem.
    package func check() async throws -> StoreCheckFindings {
        do {
            let structure = try await pool.writeWithoutTransaction { db in Self.checkSearchIndexStructure(db) }
            return try await pool.read { db in
                let version = try Self.userVersion(db)
                let checks = [
                    Self.checkIntegrity(db), Self.checkForeignKeys(db), Self.checkSpatialIndexes(db), structure,
                    Self.checkSearchIndexGrams(db), Self.checkSearchEntries(db), Self.checkCounters(db),
                    Self.checkRecordCourses(db),
                ]
                let images = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, 0, image FROM course WHERE image IS NOT NULL
                        UNION ALL SELECT id, 1, image FROM deleted_course WHERE image IS NOT NULL
                        ORDER BY 1
                        """
                ).map { StoredImage(courseID: $0[0], isDeleted: $0[1], name: $0[2]) }
                return StoreCheckFindings(backend: "sqlite", schemaVersion: version, checks: checks, images: images)
            }
        } catch let error as DatabaseError {
            throw StoreError(error)
        }
    }

    /// Runs `body` for `check`; a database error (a damaged page, say) is a problem of that
    /// check, and the other checks go on.
    private static func running(
        _ name: String, _ body: (inout StoreCheckReport.Check) throws -> Void
    ) -> StoreCheckReport.Check {
        var check = StoreCheckReport.Check(name: name)
        do {
            try body(&check)
        } catch let error as DatabaseError {
            check.add("could not be read: \(error.message ?? "\(error)")")
        } catch {
            check.add("could not be read: \(error)")
        }
        return check
    }

    /// The ids `sql` selects (its first column), each a problem `message` makes.
    private static func addEach(
        _ db: Database, _ sql: String, to check: inout StoreCheckReport.Check, _ message: (Row) -> String
    ) throws {
        let rows = try Row.fetchCursor(db, sql: sql)
        while let row = try rows.next() { check.add(message(row)) }
    }

    // MARK: - SQLite's own checks

    /// `PRAGMA integrity_check`: every page, index and constraint of the file.
    static func checkIntegrity(_ db: Database) -> StoreCheckReport.Check {
        running("SQLite integrity_check") { check in
            for line in try String.fetchAll(db, sql: "PRAGMA integrity_check(100)") where line != "ok" {
                check.add(line)
            }
        }
    }

    /// `PRAGMA foreign_key_check`: scraps of no course, identities and stamps of no runner.
    static func checkForeignKeys(_ db: Database) -> StoreCheckReport.Check {
        running("foreign keys") { check in
            try addEach(db, "PRAGMA foreign_key_check", to: &check) { row in
                let table: String = row[0]
                let rowID: Int64? = row[1]
                let parent: String = row[2]
                return
                    "a \(table) row (rowid \(rowID.map(String.init) ?? "none")) refers to a \(parent) row that is not there"
            }
        }
    }

    /// The R*Trees' own `rtreecheck`, and no spatial entry of a course that is not there (the
    /// delete trigger removes a course's entries with it).
    static func checkSpatialIndexes(_ db: Database) -> StoreCheckReport.Check {
        running("spatial indexes") { check in
            for table in ["course_bounds", "course_start", "course_piece"] {
                let answer = try String.fetchOne(db, sql: "SELECT rtreecheck(?)", arguments: [table]) ?? "ok"
                for line in answer.split(separator: "\n") where line != "ok" { check.add("\(table): \(line)") }
            }
            for table in ["course_bounds", "course_start"] {
                try addEach(
                    db,
                    "SELECT id FROM \(table) WHERE NOT EXISTS (SELECT 1 FROM course WHERE course.id = \(table).id) ORDER BY id",
                    to: &check
                ) { "\(table) holds course #\($0[0] as Int64), which is not there" }
            }
            // A piece's id is its course's id times 2^24 plus its number.
            try addEach(
                db,
                """
                SELECT DISTINCT id / 16777216 AS course_id FROM course_piece
                WHERE NOT EXISTS (SELECT 1 FROM course WHERE course.id = course_piece.id / 16777216) ORDER BY 1
                """, to: &check
            ) { "course_piece holds pieces of course #\($0[0] as Int64), which is not there" }
            check.examined = try Int.fetchOne(db, sql: "SELECT count(*) FROM course_bounds")
        }
    }

    // MARK: - The search index

    /// The FTS5 index's `integrity-check`. Its table is contentless, so this checks its
    /// structure (segments, pages, doclists); ``checkSearchIndexGrams(_:)`` checks what it holds.
    static func checkSearchIndexStructure(_ db: Database) -> StoreCheckReport.Check {
        running("search index structure") { check in
            do {
                try db.execute(
                    sql: "INSERT INTO course_search_token (course_search_token) VALUES ('integrity-check')")
            } catch let error as DatabaseError {
                check.add(
                    "the search index (course_search_token) is damaged: \(error.message ?? "\(error)"); "
                        + "searches may miss or wrongly find courses")
            }
        }
    }

    /// Each gram of the index in as many courses as the entries' text gives it (FTS5's own
    /// vocabulary table, `fts5vocab`); for a gram that differs (at most 20 looked into), the
    /// courses listed under it that should not be, and those missing.
    static func checkSearchIndexGrams(_ db: Database) -> StoreCheckReport.Check {
        running("search index grams") { check in
            // String keys: a gram is a small string, held inline, never its entry's whole text.
            var expected: [String: Int] = [:]
            var entries = 0
            try forEachEntryGrams(db) { _, grams in
                entries += 1
                for gram in grams { expected[String(gram), default: 0] += 1 }
            }
            try db.execute(
                sql:
                    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.runnect_check_vocabulary USING fts5vocab(main, course_search_token, 'row')"
            )
            defer { try? db.execute(sql: "DROP TABLE IF EXISTS temp.runnect_check_vocabulary") }
            var differing: [String] = []
            let indexed = try Row.fetchCursor(db, sql: "SELECT term, doc FROM temp.runnect_check_vocabulary")
            while let row = try indexed.next() {
                let term: String = row[0]
                let count: Int = row[1]
                if expected.removeValue(forKey: term) != count { differing.append(term) }
            }
            differing += expected.keys
            check.examined = entries
            guard !differing.isEmpty else { return }
            try nameCourses(db, differing: Array(differing.sorted().prefix(20)), in: &check)
            if check.passed {
                // The grams' counts differ, yet no course could be named: say so all the same.
                check.add("\(differing.count) gram(s) of the index are counted differently from the entries' text")
            }
        }
    }

    /// The courses behind grams whose counts differ: listed in the index under a gram their text
    /// lacks, or missing under one it holds.
    private static func nameCourses(
        _ db: Database, differing: [String], in check: inout StoreCheckReport.Check
    ) throws {
        let wanted = Set(differing)
        var expected: [String: Set<Int64>] = [:]
        try forEachEntryGrams(db) { id, grams in
            for gram in grams where wanted.contains(String(gram)) { expected[String(gram), default: []].insert(id) }
        }
        var extra: [Int64: String] = [:]
        var missing: [Int64: String] = [:]
        for gram in differing {
            // A gram is letters and digits only: quoted, it is one FTS5 token and nothing else.
            let listed = Set(
                try Int64.fetchAll(
                    db, sql: "SELECT rowid FROM course_search_token WHERE course_search_token MATCH ?",
                    arguments: ["\"\(gram)\""]))
            let holds = expected[gram] ?? []
            for id in listed.subtracting(holds) where extra[id] == nil { extra[id] = gram }
            for id in holds.subtracting(listed) where missing[id] == nil { missing[id] = gram }
        }
        for (id, gram) in extra.sorted(by: { $0.key < $1.key }) {
            check.add(
                "the search index lists course #\(id) under a gram its search text does not hold (\(gram)): "
                    + "searches may find it wrongly")
        }
        for (id, gram) in missing.sorted(by: { $0.key < $1.key }) {
            check.add(
                "the search index lacks a gram of course #\(id)'s search text (\(gram)): searches may miss it")
        }
    }

    /// Each search entry's id and the set of its grams, as indexing makes them from its text.
    private static func forEachEntryGrams(_ db: Database, _ body: (Int64, Set<Substring>) throws -> Void) throws {
        let rows = try Row.fetchCursor(
            db, sql: "SELECT course_id, title, description, departure FROM course_search ORDER BY course_id")
        while let row = try rows.next() {
            let text = SearchText(title: row[1], description: row[2], departure: row[3])
            try body(row[0], Set(text.tokenDocument.split(separator: " ")))
        }
    }

    /// One search entry for every course, none for a course that is not there.
    static func checkSearchEntries(_ db: Database) -> StoreCheckReport.Check {
        running("search entries") { check in
            try addEach(
                db,
                """
                SELECT id FROM course WHERE NOT EXISTS (SELECT 1 FROM course_search WHERE course_id = course.id)
                ORDER BY id
                """, to: &check
            ) { "course #\($0[0] as Int64) has no search entry: searches never find it" }
            try addEach(
                db,
                """
                SELECT course_id FROM course_search
                WHERE NOT EXISTS (SELECT 1 FROM course WHERE id = course_search.course_id) ORDER BY course_id
                """, to: &check
            ) { "a search entry is of course #\($0[0] as Int64), which is not there" }
            check.examined = try Int.fetchOne(db, sql: "SELECT count(*) FROM course")
        }
    }

    // MARK: - Counters and records

    /// Each course's `scrap_count` and `record_count` against its scraps and records (the
    /// triggers keep them).
    static func checkCounters(_ db: Database) -> StoreCheckReport.Check {
        running("counters") { check in
            for (column, table) in [("scrap_count", "scrap"), ("record_count", "record")] {
                try addEach(
                    db,
                    """
                    SELECT c.id, c.\(column), count(t.course_id) FROM course c
                    LEFT JOIN \(table) t ON t.course_id = c.id
                    GROUP BY c.id HAVING c.\(column) <> count(t.course_id) ORDER BY c.id
                    """, to: &check
                ) { row in
                    "course #\(row[0] as Int64)'s \(table) count is \(row[1] as Int) but it has \(row[2] as Int) \(table)(s)"
                }
            }
            check.examined = try Int.fetchOne(db, sql: "SELECT count(*) FROM course")
        }
    }

    /// Every record's course stored, or kept as deleted; no course both.
    static func checkRecordCourses(_ db: Database) -> StoreCheckReport.Check {
        running("records' courses") { check in
            try addEach(
                db,
                """
                SELECT id, course_id FROM record r
                WHERE NOT EXISTS (SELECT 1 FROM course WHERE id = r.course_id)
                  AND NOT EXISTS (SELECT 1 FROM deleted_course WHERE id = r.course_id)
                ORDER BY id
                """, to: &check
            ) { "record:\($0[0] as Int64) is of course #\($0[1] as Int64), neither stored nor kept as deleted" }
            try addEach(
                db, "SELECT id FROM deleted_course d WHERE EXISTS (SELECT 1 FROM course WHERE id = d.id) ORDER BY id",
                to: &check
            ) { "course #\($0[0] as Int64) is both stored and kept as deleted" }
            check.examined = try Int.fetchOne(db, sql: "SELECT count(*) FROM record")
        }
    }
}
