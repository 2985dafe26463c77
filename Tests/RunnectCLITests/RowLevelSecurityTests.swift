import Foundation
import RunnectTestSupport
import Testing

/// The database itself refuses what the store refuses: after `runnect db init` and two
/// `runnect db add-user`, a runner connected with `psql` tries another runner's rows directly.
/// Each forbidden statement affects no row or is refused; what is allowed still works.
@Suite(.postgres) struct RowLevelSecurityTests {
    let cluster: PostgresCluster
    let database: String
    let alice: String
    let bob: String

    init() throws {
        cluster = try PostgresCluster.get()
        database = try cluster.makeDatabase(prefix: "rls")
        alice = PostgresCluster.uniqueRoleName("alice")
        bob = PostgresCluster.uniqueRoleName("bob")
    }

    /// Runs statements as `role` (each `-c` on its own), returning what psql printed.
    @discardableResult
    func sql(_ role: String, _ statements: String...) throws -> PostgresCluster.PsqlResult {
        let url = cluster.url(database: database, user: role, password: "\(role) pw")
        return try cluster.psql(["-d", url] + statements.flatMap { ["-c", $0] })
    }

    /// `statement` as `role` succeeds and prints `output` (rows, then the command tag).
    func expect(
        _ role: String, _ statement: String, prints output: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try sql(role, statement)
        #expect(result.status == 0, "\(statement): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stdout.trimmingCharacters(in: .newlines) == output, "\(statement)", sourceLocation: sourceLocation)
    }

    /// `statement` as `role` fails with `error` in its message.
    func expect(
        _ role: String, _ statement: String, fails error: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try sql(role, statement)
        #expect(result.status != 0, "\(statement) was not refused", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(error), "\(statement): \(result.stderr)", sourceLocation: sourceLocation)
    }

    /// A course whose derived columns agree (schema version 15): its distance is its path's length.
    func insertCourse(_ title: String, hash: String) -> String {
        """
        INSERT INTO course (owner, title, source_format, content_hash, distance_m, point_count, stats, geometry, path,
                            start_lat, start_lon, finish_lat, finish_lon, path_m)
        VALUES (current_user, '\(title)', 'gpx', encode(sha256('\(hash)'), 'hex'), 1419.019, 2,
                '{"points": 2, "segments": 1, "distance_m": 1419.019}', '\\x0102'::bytea,
                'SRID=4326;MULTILINESTRING((127.0 37.5, 127.01 37.51))'::geography, 37.5, 127.0, 37.51, 127.01,
                1419.019) RETURNING id
        """
    }

    func insertRecord(courseID: String, owner: String = "current_user") -> String {
        """
        INSERT INTO record (owner, course_id, title, source_format, content_hash, distance_m, point_count,
            course_time_s, course_distance_m, match_coverage, stats, geometry)
        VALUES (\(owner), \(courseID), 'run', 'fit', encode(sha256(random()::text::bytea), 'hex'), 1500, 2, 600,
                1419.019, 1, '{"points": 2, "segments": 1, "distance_m": 1500, "elapsed_time_s": 600}', '\\x01'::bytea)
        """
    }

    @Test func aRunnerCannotTouchAnothersRows() throws {
        let admin = cluster.url(database: database)
        #expect(try RunnectProcess.run(["db", "init", "--db", admin]).status == 0)
        for role in [alice, bob] {
            let added = try RunnectProcess.run(
                ["db", "add-user", role, "--password-stdin", "--db", admin], stdin: "\(role) pw\n")
            #expect(added.status == 0, "\(added.stderr)")
        }

        // Alice: a private course, a shared one, a record of the private one, its search entry.
        let privateID = try #require(
            try sql(alice, insertCourse("Alice private", hash: "h1")).stdout.split(separator: "\n").first)
        let sharedID = try #require(
            try sql(alice, insertCourse("Alice shared", hash: "h2")).stdout.split(separator: "\n").first)
        try expect(
            alice, "UPDATE course SET is_uploaded = true, uploaded_at = now() WHERE id = \(sharedID)",
            prints: "UPDATE 1")
        try expect(alice, insertRecord(courseID: String(privateID)), prints: "INSERT 0 1")
        // A piece: its path and its box (west, south, east, north).
        let piece = "'SRID=4326;LINESTRING(127.0 37.5, 127.01 37.51)', 127.0, 37.5, 127.01, 37.51"
        for id in [privateID, sharedID] {
            try expect(
                alice, "INSERT INTO course_piece VALUES (\(id), 0, \(piece))",
                prints: "INSERT 0 1")
        }
        try expect(
            alice, #"INSERT INTO scrap (course_id, "user") VALUES (\#(sharedID), current_user)"#, prints: "INSERT 0 1")
        try expect(
            alice,
            """
            INSERT INTO course_search (course_id, created_ms, title, description, departure, tokens,
                                       title_initials, description_initials, departure_initials)
            VALUES (\(privateID), 0, 'alice private', '', '', ARRAY['ta', 'tal'], 'alice private', '', '')
            """, prints: "INSERT 0 1")

        // Bob, on Alice's courses: no update, upload, unupload or delete reaches a row.
        for id in [privateID, sharedID] {
            try expect(bob, "UPDATE course SET title = 'Bob''s now' WHERE id = \(id)", prints: "UPDATE 0")
            try expect(bob, "DELETE FROM course WHERE id = \(id)", prints: "DELETE 0")
        }
        try expect(
            bob, "UPDATE course SET is_uploaded = true, uploaded_at = now() WHERE id = \(privateID)", prints: "UPDATE 0"
        )
        try expect(bob, "UPDATE course SET is_uploaded = false WHERE id = \(sharedID)", prints: "UPDATE 0")
        // Columns no runner may write: refused outright.
        try expect(bob, "UPDATE course SET owner = current_user WHERE id = \(sharedID)", fails: "permission denied")
        try expect(bob, "UPDATE course SET scrap_count = 100 WHERE id = \(sharedID)", fails: "permission denied")
        // Reading: the shared course only; no record, no private search entry (nor its tokens).
        try expect(bob, "SELECT string_agg(title, ',') FROM course", prints: "Alice shared")
        try expect(bob, "SELECT count(*) FROM course WHERE id = \(privateID)", prints: "0")
        try expect(bob, "SELECT count(*) FROM record", prints: "0")
        try expect(bob, "SELECT count(*) FROM course_search", prints: "0")
        // The owner's functions behind near-me and keyword search keep to what Bob may read.
        let ring = "127.0, 37.5, 100000, 36.5, 38.5, ARRAY[125.8, 128.2]"
        try expect(
            bob, "SELECT string_agg(id::text, ',') FROM runnect_nearby_box(\(ring), 'all', 100)",
            prints: String(sharedID))
        try expect(bob, "SELECT count(*) FROM runnect_nearby_box(\(ring), 'mine', 100)", prints: "0")
        // Keyword + near's distances: of Alice's two courses, only the shared one for Bob.
        let both = "ARRAY[\(privateID), \(sharedID)]::bigint[]"
        try expect(
            alice, "SELECT count(*) FROM runnect_course_distances(\(both), 127.0, 37.5, 100000)", prints: "2")
        try expect(
            bob, "SELECT string_agg(id::text, ',') FROM runnect_course_distances(\(both), 127.0, 37.5, 100000)",
            prints: String(sharedID))
        // The search's page function takes index tokens only (keywords only as bound needles, the
        // order only by name) and keeps to what the caller may read: Alice's private entry is
        // found for her, not for Bob.
        let tokenPage = "runnect_search_page(ARRAY['ta'], '{}', '{}', 0, 0, false, 'date', NULL, 0, 100)"
        try expect(alice, "SELECT string_agg(id::text, ',') FROM \(tokenPage)", prints: String(privateID))
        try expect(bob, "SELECT count(*) FROM \(tokenPage)", prints: "0")
        // A keyword of initials, found by its projection alone: Alice's, not Bob's.
        let initialsPage = "runnect_search_page('{}', ARRAY[NULL], ARRAY['ate'], 1, 0, false, 'date', 5, 0, 100)"
        try expect(alice, "SELECT string_agg(id::text, ',') FROM \(initialsPage)", prints: String(privateID))
        try expect(bob, "SELECT count(*) FROM \(initialsPage)", prints: "0")
        try expect(
            bob,
            "SELECT count(*) FROM runnect_search_page(ARRAY['t1''; DROP TABLE course; --'], '{}', '{}', 0, 0, false, 'date', NULL, 0, 9)",
            fails: "a clause holds more than tokens")
        let injected = "$$'); DROP TABLE course; --$$"
        for (needle, initial) in [(injected, "NULL"), ("NULL", injected)] {
            let page = "runnect_search_page('{}', ARRAY[\(needle)], ARRAY[\(initial)], 1, 1, false, 'date', 5, 0, 9)"
            try expect(bob, "SELECT count(*) FROM \(page)", prints: "0")
        }
        try expect(
            bob, "SELECT count(*) FROM runnect_search_page('{}', ARRAY['a'], '{}', 0, 0, false, 'date', 5, 0, 9)",
            fails: "1 needles, 0 initials")
        try expect(
            bob,
            "SELECT count(*) FROM runnect_search_page('{}', ARRAY[NULL], ARRAY[NULL], 0, 0, false, 'date', 5, 0, 9)",
            fails: "keyword 1 has no needle")
        try expect(
            bob,
            "SELECT count(*) FROM runnect_search_page('{}', '{}', '{}', 0, 0, false, 'date; DROP TABLE course', NULL, 0, 9)",
            fails: "no sort")
        // Path pieces: none readable, none addable to another's course.
        try expect(bob, "SELECT count(*) FROM course_piece", fails: "permission denied")
        try expect(
            bob, "INSERT INTO course_piece VALUES (\(privateID), 1, \(piece))",
            fails: "row-level security policy")
        try expect(bob, "SELECT count(*) FROM scrap", prints: "0")
        // Records: none of Alice's can be changed; none can be made on her private course.
        try expect(bob, "UPDATE record SET title = 'mine'", prints: "UPDATE 0")
        try expect(bob, "DELETE FROM record", prints: "DELETE 0")
        try expect(bob, insertRecord(courseID: String(privateID)), fails: "row-level security policy")
        try expect(
            bob, insertRecord(courseID: String(sharedID), owner: "'\(alice)'"), fails: "row-level security policy")
        // Writing as Alice: a course, a scrap, a search entry of her course.
        try expect(
            bob,
            insertCourse("Forged", hash: "h3").replacingOccurrences(
                of: "VALUES (current_user", with: "VALUES ('\(alice)'"), fails: "row-level security policy")
        try expect(
            bob, #"INSERT INTO scrap (course_id, "user") VALUES (\#(sharedID), '\#(alice)')"#,
            fails: "row-level security policy")
        try expect(bob, #"DELETE FROM scrap WHERE "user" = '\#(alice)'"#, prints: "DELETE 0")
        try expect(
            bob,
            """
            INSERT INTO course_search (course_id, created_ms, title, description, departure, tokens)
            VALUES (\(sharedID), 0, 'spam', '', '', ARRAY['ts'])
            """, fails: "row-level security policy")
        // A private course cannot be scrapped, even as oneself.
        try expect(
            bob, #"INSERT INTO scrap (course_id, "user") VALUES (\#(privateID), current_user)"#,
            fails: "row-level security policy")

        // What Bob may do: scrap the shared course as himself, record a run of it.
        try expect(
            bob, #"INSERT INTO scrap (course_id, "user") VALUES (\#(sharedID), current_user)"#, prints: "INSERT 0 1")
        try expect(bob, insertRecord(courseID: String(sharedID)), prints: "INSERT 0 1")
        try expect(bob, "SELECT scrap_count || ' ' || record_count FROM course WHERE id = \(sharedID)", prints: "2 1")
        try expect(alice, "SELECT count(*) FROM record", prints: "1")  // hers, not Bob's

        // Nothing of Alice's changed.
        let rows = try cluster.psql([
            "-d", database, "-c",
            "SELECT id || ' ' || owner || ' ' || title || ' ' || is_uploaded FROM course ORDER BY id",
        ])
        #expect(
            rows.stdout.split(separator: "\n") == [
                "\(privateID) \(alice) Alice private false", "\(sharedID) \(alice) Alice shared true",
            ])

        // Un-sharing clears the course's scraps, Bob's too (a trigger: Alice may not delete them).
        try expect(
            alice, "UPDATE course SET is_uploaded = false, uploaded_at = NULL WHERE id = \(sharedID)",
            prints: "UPDATE 1")
        let left = try cluster.psql([
            "-d", database, "-c",
            "SELECT (SELECT count(*) FROM scrap) || ' ' || scrap_count FROM course WHERE id = \(sharedID)",
        ])
        #expect(left.stdout.trimmingCharacters(in: .newlines) == "0 0")
    }
}
