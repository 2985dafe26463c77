import Foundation
import PostgresNIO
import RunnectKit
import RunnectStore
import RunnectTestSupport
import Testing

@testable import RunnectPostgres

@Suite(.postgres) struct PostgresSchemaTests {
    @Test func initCreatesEverythingOnceAndAgainChangesNothing() async throws {
        let database = try ClusterDatabase()
        let url = try database.adminURL
        let first = try await PostgresAdministration.initialize(url)
        #expect(first.appliedVersions == Array(1...PostgresSchema.supportedVersion))
        #expect(first.schemaVersion == PostgresSchema.supportedVersion)
        #expect(first.createdExtension)
        #expect(first.database == database.name)

        let tables = try database.adminSQL(
            """
            SELECT string_agg(tablename || ':' || rowsecurity, ' ' ORDER BY tablename) FROM pg_tables
            WHERE schemaname = 'public' AND tablename NOT LIKE 'spatial%'
            """)
        #expect(
            tables.stdout.trimmed
                == "course:true course_piece:true course_search:true deleted_course:true record:true runner:true "
                + "runner_account:true runner_count_pending:true runner_identity:true runner_stamp:true "
                + "schema_version:false scrap:true stamp_threshold:false"
        )
        let path = try database.adminSQL(
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'course'::regclass AND attname = 'path'"
        )
        #expect(path.stdout.trimmed == "geography(MultiLineString,4326)")

        let second = try await PostgresAdministration.initialize(url)
        #expect(second.appliedVersions == [])
        #expect(!second.createdExtension)
        let versions = try database.adminSQL("SELECT string_agg(version || ' ' || name, ',') FROM schema_version")
        #expect(
            versions.stdout.trimmed
                == "1 v1-courses-records-search,2 v2-path-segments,3 v3-search-gin,4 v4-path-pieces,5 v5-search-pages,6 v6-nearby-rings,"
                + "7 v7-lighter-upkeep,8 v8-search-orders,9 v9-piece-boxes,10 v10-search-initials,11 v11-search-continued,"
                + "12 v12-search-both-fields,13 v13-planned-reads,14 v14-covered-walks,15 v15-derived-checks,16 v16-readable-estimates,"
                + "17 v17-deleted-courses,18 v18-runners,19 v19-course-starts,20 v20-runner-roles-raced"
        )
    }

    @Test func version2SplitsAVersion1PathIntoItsSegments() async throws {
        let database = try ClusterDatabase()
        let url = try database.adminURL
        #expect(try await PostgresAdministration.initialize(url, upTo: 1).appliedVersions == [1])
        // A two-segment course as version 1 stored it: its segments joined into one line.
        let file = SampleTracks.folder.appendingPathComponent("namsan_loop_two_segments.gpx")
        let draft = try CourseDraft(source: CourseSource(path: file.path), title: "남산")
        let segments = try ActivityCodec.decode(draft.record.geometry).courseSegments
        #expect(segments.count == 2)
        let joined = segments.joined().map { "\($0.longitude) \($0.latitude)" }.joined(separator: ",")
        let wkt = "LINESTRING(\(joined))"
        _ = try await PostgresSession.with(url) { session in
            try await session.query(
                """
                INSERT INTO course (owner, title, source_format, content_hash, distance_m, point_count, stats, geometry, path)
                VALUES ('x', 't', 'gpx', 'h', 1, 1, '{}', \(draft.record.geometry), ST_GeogFromText(\(wkt)))
                """)
        }

        // Up to version 14: version 15 refuses the made-up row's stats and hash.
        #expect(try await PostgresAdministration.initialize(url, upTo: 14).appliedVersions == Array(2...14))
        let lines = try database.adminSQL(
            "SELECT ST_NumGeometries(path::geometry), ST_NPoints(path::geometry), GeometryType(path) FROM course")
        #expect(lines.stdout.trimmed == "2|\(segments.joined().count)|MULTILINESTRING")
        let expected = try #require(try PostgresTransaction.pathWKB(draft.record.geometry))
        let stored = try database.adminSQL("SELECT encode(ST_AsBinary(path::geometry), 'hex') FROM course")
        #expect(stored.stdout.trimmed == expected.hexString)
        // Version 4 cut the path into the pieces near-me search walks, as SQLite cuts them.
        let pieces = try #require(CoursePieces(try ActivityCodec.decode(draft.record.geometry)))
        let stored4 = try database.adminSQL(
            "SELECT count(*), min(piece), max(piece), sum(ST_NPoints(path::geometry)) FROM course_piece")
        let points = pieces.pieces.reduce(0) { $0 + max(2, $1.points.count) }
        #expect(stored4.stdout.trimmed == "\(pieces.pieces.count)|0|\(pieces.pieces.count - 1)|\(points)")
        #expect(pieces.pieces.count > 2)
    }

    /// Version 7: the pieces' key became a check once a statement and a delete by trigger; the
    /// grams compare by bytes and still go through their GIN index; the whole path's GiST
    /// index is gone.
    @Test func version7KeepsPiecesToTheirCoursesAndTheGramsIndexed() async throws {
        let database = try ClusterDatabase()
        // Up to version 14: version 15's checks refuse the made-up course below.
        _ = try await PostgresAdministration.initialize(try database.adminURL, upTo: 14)
        let line = "ST_GeogFromText('LINESTRING(127 37.5, 127.001 37.5)')"
        let id =
            try database.adminSQL(
                """
                INSERT INTO course (owner, title, source_format, content_hash, distance_m, point_count, stats, geometry)
                VALUES ('x', 't', 'gpx', 'h', 1, 1, '{}', '\\x00') RETURNING id
                """
            ).stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(Int(id) != nil)
        let box = "127, 37.5, 127.001, 37.5"
        try database.adminSQL(
            "INSERT INTO course_piece VALUES (\(id), 0, \(line), \(box)), (\(id), 1, \(line), \(box))")

        // A statement adding a piece of no course is refused whole, as the key refused it.
        let orphan = try database.adminSQL(
            "INSERT INTO course_piece VALUES (\(id), 2, \(line), \(box)), (\(id)0, 0, \(line), \(box))")
        #expect(orphan.status != 0)
        #expect(orphan.stderr.contains("a course piece names no course"))
        #expect(try database.adminSQL("SELECT count(*) FROM course_piece").stdout.trimmed == "2")

        try database.adminSQL("DELETE FROM course WHERE id = \(id)")
        #expect(try database.adminSQL("SELECT count(*) FROM course_piece").stdout.trimmed == "0")

        let collation = try database.adminSQL(
            """
            SELECT collation_name FROM information_schema.columns
            WHERE table_name = 'course_search' AND column_name = 'tokens'
            """)
        #expect(collation.stdout.trimmed == "C")
        let plan = try database.adminSQL(
            """
            SET enable_seqscan = off;
            EXPLAIN SELECT course_id FROM course_search WHERE tokens @> ARRAY['tab', 'tbc']
            """)
        #expect(plan.stdout.contains("course_search_tokens"))
        #expect(try database.adminSQL("SELECT to_regclass('course_path') IS NULL").stdout.trimmed == "t")
    }

    /// Version 8: a search entry holds its course's scrap count and distance, filled for the
    /// entries already there, taken from the course by a new entry, and counted with the course's.
    @Test func version8EntriesCarryTheirCoursesScrapCountAndDistance() async throws {
        let database = try ClusterDatabase()
        let url = try database.adminURL
        #expect(try await PostgresAdministration.initialize(url, upTo: 7).appliedVersions == Array(1...7))
        func addCourse(_ hash: String, meters: Double) throws -> String {
            let id =
                try database.adminSQL(
                    """
                    INSERT INTO course (owner, title, source_format, content_hash, distance_m, point_count, stats,
                                        geometry, is_uploaded)
                    VALUES ('x', 't', 'gpx', '\(hash)', \(meters), 1, '{}', '\\x00', true) RETURNING id
                    """
                ).stdout.split(separator: "\n").first.map(String.init) ?? ""
            try database.adminSQL(
                """
                INSERT INTO course_search (course_id, created_ms, title, description, departure, tokens)
                VALUES (\(id), 1, 't', '', '', '{}')
                """)
            return id
        }
        let first = try addCourse("a", meters: 1234.5)
        try database.adminSQL(#"INSERT INTO scrap (course_id, "user") VALUES (\#(first), 'y')"#)
        #expect(try await PostgresAdministration.initialize(url, upTo: 8).appliedVersions == [8])
        func entry(_ id: String) throws -> String {
            try database.adminSQL(
                """
                SELECT s.scrap_count || ' ' || s.distance_m || ' ' || c.scrap_count
                FROM course_search s JOIN course c ON c.id = s.course_id WHERE c.id = \(id)
                """
            ).stdout.trimmed
        }
        #expect(try entry(first) == "1 1234.5 1")
        try database.adminSQL(#"INSERT INTO scrap (course_id, "user") VALUES (\#(first), 'z')"#)
        #expect(try entry(first) == "2 1234.5 2")
        try database.adminSQL(#"DELETE FROM scrap WHERE course_id = \#(first) AND "user" = 'y'"#)
        #expect(try entry(first) == "1 1234.5 1")
        // Un-sharing deletes the scraps, and both counts follow.
        try database.adminSQL("UPDATE course SET is_uploaded = false WHERE id = \(first)")
        #expect(try entry(first) == "0 1234.5 0")
        let second = try addCourse("b", meters: 42)
        #expect(try entry(second) == "0 42 0")
    }

    /// Version 9: the pieces are cut again with their boxes, ``CoursePieces``' own to the bit,
    /// and a box query goes through their two-dimensional index, not the `geography` one (gone).
    @Test func version9CutsThePiecesAgainWithTheirBoxes() async throws {
        let database = try ClusterDatabase()
        let url = try database.adminURL
        #expect(try await PostgresAdministration.initialize(url, upTo: 8).appliedVersions == Array(1...8))
        let file = SampleTracks.folder.appendingPathComponent("namsan_loop_two_segments.gpx")
        let draft = try CourseDraft(source: CourseSource(path: file.path), title: "남산")
        let pieces = try #require(CoursePieces(try ActivityCodec.decode(draft.record.geometry)))
        try await PostgresSession.with(url) { session in
            try await session.query(
                """
                INSERT INTO course (owner, title, source_format, content_hash, distance_m, point_count, stats, geometry)
                VALUES ('x', 't', 'gpx', 'h', 1, 1, '{}', \(draft.record.geometry))
                """)
            try await PathPiecesMigration.fillPieces(session, boxes: false)
        }
        #expect(try database.adminSQL("SELECT count(*) FROM course_piece").stdout.trimmed == "\(pieces.pieces.count)")
        #expect(try await PostgresAdministration.initialize(url, upTo: 9).appliedVersions == [9])

        let stored = try database.adminSQL(
            "SELECT piece, west, south, east, north, ST_NPoints(path::geometry) FROM course_piece ORDER BY piece")
        let expected = pieces.pieces.enumerated().map { index, piece in
            let numbers = [piece.minLongitude, piece.minLatitude, piece.maxLongitude, piece.maxLatitude]
            return "\(index)|" + numbers.map { "\($0)" }.joined(separator: "|") + "|\(max(2, piece.points.count))"
        }
        #expect(stored.stdout.trimmed.split(separator: "\n").map(String.init) == expected)
        #expect(pieces.pieces.count > 2)
        #expect(try database.adminSQL("SELECT to_regclass('course_piece_path') IS NULL").stdout.trimmed == "t")
        let plan = try database.adminSQL(
            """
            SET enable_seqscan = off;
            EXPLAIN SELECT piece FROM course_piece
            WHERE \(PostgresSchema.pieceBox()) && ST_MakeEnvelope(126.98, 37.55, 126.99, 37.56)
            """)
        #expect(plan.stdout.contains("course_piece_box"))
        // A copy stopped after setting the index aside: `db init` makes it again.
        try database.adminSQL("DROP INDEX course_piece_box")
        #expect(try await PostgresAdministration.initialize(url, upTo: 9).appliedVersions == [])
        #expect(try database.adminSQL("SELECT to_regclass('course_piece_box') IS NOT NULL").stdout.trimmed == "t")
    }

    /// Version 10: the entries already there get each field's initials projection (in more
    /// than one batch), a new entry must bring its own, and a walk finds a keyword of initials
    /// by the projection alone (these entries have no grams at all).
    @Test func version10ProjectsTheEntriesInitials() async throws {
        let database = try ClusterDatabase()
        let url = try database.adminURL
        #expect(try await PostgresAdministration.initialize(url, upTo: 9).appliedVersions == Array(1...9))
        let entries = SearchInitialsMigration.batch + 500
        try database.adminSQL(
            """
            INSERT INTO course (owner, title, source_format, content_hash, distance_m, point_count, stats, geometry,
                                is_uploaded)
            SELECT 'x', 't', 'gpx', 'h' || i, 1, 1, '{}', '\\x00', true FROM generate_series(1, \(entries + 1)) AS i;
            INSERT INTO course_search (course_id, created_ms, title, description, departure, tokens)
            SELECT id, id, '올림픽공원 ' || id, '잠실 a', 'Seoul 송파구', '{}' FROM course ORDER BY id LIMIT \(entries);
            """)
        let file = "SELECT pg_relation_filenode('course_search')"
        let before = try database.adminSQL(file).stdout.trimmed
        #expect(try await PostgresAdministration.initialize(url, upTo: 10).appliedVersions == [10])
        // Rewritten row by row, then compacted into a new file once the migration committed.
        #expect(try database.adminSQL(file).stdout.trimmed != before)
        let projected = try database.adminSQL(
            """
            SELECT count(*) FROM course_search WHERE title_initials = 'ㅇㄹㅍㄱㅇ ' || course_id
                AND description_initials = 'ㅈㅅ a' AND departure_initials = 'Seoul ㅅㅍㄱ'
            """)
        #expect(projected.stdout.trimmed == "\(entries)")
        let page = try database.adminSQL(
            """
            SELECT string_agg(id::text, ',') FROM runnect_search_page('{}', ARRAY[NULL], ARRAY['ㅍㄱ'], 1, 0, true,
                                                                      'date', 10, 0, 3)
            """)
        let newest = try database.adminSQL(
            """
            SELECT string_agg(course_id::text, ',' ORDER BY course_id DESC)
            FROM (SELECT course_id FROM course_search ORDER BY course_id DESC LIMIT 3) AS s
            """)
        #expect(page.stdout.trimmed == newest.stdout.trimmed)
        #expect(page.stdout.trimmed.split(separator: ",").count == 3)
        #expect(
            try database.adminSQL(
                """
                INSERT INTO course_search (course_id, created_ms, title, description, departure, tokens)
                SELECT max(id), 1, 't', '', '', '{}' FROM course
                """
            ).stderr.contains("null value in column \"title_initials\""))
    }

    /// Version 11: a page read on from a row already seen (its id and its order's keys) holds
    /// exactly the rows after it, in every order, walked or read through the GIN index; a
    /// missing key is refused.
    @Test func version11ReadsOnFromARowSeen() async throws {
        let database = try ClusterDatabase()
        let url = try database.adminURL
        // Up to version 14: version 15's checks refuse the made-up courses below, and its search
        // entries take their courses' creation times, not those given here.
        _ = try await PostgresAdministration.initialize(url, upTo: 14)
        // 40 shared courses; dates, scrap counts and distances with ties, so that every order's
        // tie-break counts.
        try database.adminSQL(
            """
            INSERT INTO course (owner, title, source_format, content_hash, distance_m, point_count, stats, geometry,
                                is_uploaded, scrap_count)
            SELECT 'x', 'a', 'gpx', 'h' || i, (i * 7) % 13, 1, '{}', '\\x00', true, i % 4
            FROM generate_series(1, 40) AS i;
            INSERT INTO course_search (course_id, created_ms, title, description, departure, tokens, title_initials,
                                       description_initials, departure_initials)
            SELECT id, id / 3, 'a ' || id, '', '', '{ta}', 'a ' || id, '', '' FROM course;
            """)
        func page(_ sort: String, walk: String, after id: String? = nil) throws -> String {
            let keys =
                id.map { id in
                    ", \(id), (SELECT created_ms FROM course_search WHERE course_id = \(id)), "
                        + "(SELECT scrap_count FROM course_search WHERE course_id = \(id)), "
                        + "(SELECT distance_m FROM course_search WHERE course_id = \(id))"
                } ?? ""
            return try database.adminSQL(
                """
                SELECT string_agg(id::text, ',') FROM runnect_search_page('{ta}', ARRAY['a'], ARRAY[NULL], 0, 0, true,
                                                                          '\(sort)', \(walk), 0, NULL\(keys))
                """
            ).stdout.trimmed
        }
        for sort in ["date", "scrap", "distance"] {
            let all = try page(sort, walk: "NULL").split(separator: ",").map(String.init)
            #expect(all.count == 40, "\(sort)")
            for seen in [0, 9, 38, 39] {
                let rest = all[(seen + 1)...].joined(separator: ",")
                #expect(try page(sort, walk: "NULL", after: all[seen]) == rest, "\(sort) after \(all[seen]), GIN")
                #expect(try page(sort, walk: "100", after: all[seen]) == rest, "\(sort) after \(all[seen]), walked")
                let five = all[(seen + 1)...].prefix(5).joined(separator: ",")
                #expect(try page(sort, walk: "5", after: all[seen]) == five, "\(sort) after \(all[seen]), 5 walked")
            }
        }
        let missing = try database.adminSQL(
            "SELECT count(*) FROM runnect_search_page('{}', ARRAY['a'], ARRAY[NULL], 0, 0, true, 'scrap', 5, 0, 9, 3, 1)"
        )
        #expect(missing.stderr.contains("the keys of course 3 in 'scrap' order are missing"))
    }

    /// Version 12: an entry there gets a `b` token for each gram in both its title and its
    /// departure, the same tokens a new entry brings (`postgresTokenDocument`); one with none
    /// keeps its tokens; and a tier of a keyword in both fields finds it by them.
    @Test func version12AddsTheGramsInBothFields() async throws {
        let database = try ClusterDatabase()
        let url = try database.adminURL
        #expect(try await PostgresAdministration.initialize(url, upTo: 11).appliedVersions == Array(1...11))
        let both = SearchEntry(
            fields: SearchFields(title: "올림픽공원 야간 러닝", description: "잠실", departure: ["서울", "송파구", "올림픽공원"]))
        let neither = SearchEntry(fields: SearchFields(title: "Han River", departure: ["부산"]))
        #expect(!both.text.bothFieldsDocument.isEmpty)
        #expect(both.bothFieldsDocument == both.text.bothFieldsDocument)
        #expect(neither.text.bothFieldsDocument.isEmpty)
        for (id, entry) in [both, neither].enumerated() {
            let initials = entry.text.initials
            try database.adminSQL(
                """
                INSERT INTO course (id, owner, title, source_format, content_hash, distance_m, point_count, stats,
                                    geometry, is_uploaded)
                VALUES (\(id + 1), 'x', 't', 'gpx', 'h\(id)', 1, 1, '{}', '\\x00', true);
                INSERT INTO course_search (course_id, created_ms, title, description, departure, tokens, title_initials,
                                           description_initials, departure_initials)
                VALUES (\(id + 1), \(id), '\(entry.text.title)', '\(entry.text.description)', '\(entry.text.departure)',
                        string_to_array('\(entry.tokenDocument)', ' '), '\(initials.title)', '\(initials.description)',
                        '\(initials.departure)');
                """)
        }
        #expect(try await PostgresAdministration.initialize(url, upTo: 12).appliedVersions == [12])
        func tokens(_ id: Int) throws -> String {
            try database.adminSQL(
                "SELECT array_to_string(ARRAY(SELECT unnest(tokens) ORDER BY 1), ' ') FROM course_search WHERE course_id = \(id)"
            ).stdout.trimmed
        }
        func sorted(_ document: String) -> String {
            document.split(separator: " ").map(String.init).sorted().joined(separator: " ")
        }
        #expect(try tokens(1) == sorted(both.postgresTokenDocument))
        #expect(try tokens(1) != sorted(both.tokenDocument))
        #expect(try tokens(2) == sorted(neither.tokenDocument))
        // `ㅇㄹㅍ` in the title and in the departure: one `b` list finds the first entry alone.
        let search = PostgresSearch(words: KoreanText.words(in: "ㅇㄹㅍ"))
        let clause = PostgresSearch.encoded(search.clauses(tier: SearchTier(inTitle: 1, inDeparture: 1)))
        #expect(clause.first?.hasPrefix("b") == true)
        let found = try database.adminSQL(
            """
            SELECT string_agg(id::text, ',') FROM runnect_search_page(ARRAY['\(clause.joined(separator: "','"))'],
                ARRAY[NULL], ARRAY['ㅇㄹㅍ'], 1, 1, true, 'date', NULL, 0, NULL)
            """)
        #expect(found.stdout.trimmed == "1")
    }

    /// Version 14: a walk in any order, of either scope, reads its order's index alone once the
    /// entries' pages are all-visible: whatever its keywords (plain, of initials, mixed, whose
    /// texts come back) and tier, no heap fetch. A column the walk reads and the index does not
    /// carry makes it a plain index scan (as before version 14, when the index held its key only).
    @Test func version14WalksReadTheirOrdersIndexesAlone() async throws {
        let database = try ClusterDatabase()
        let url = try database.adminURL
        #expect(try await PostgresAdministration.initialize(url, upTo: 13).appliedVersions == Array(1...13))
        // Not 15: its checks refuse the made-up courses below (as for version 11's test).
        #expect(try await PostgresAdministration.initialize(url, upTo: 14).appliedVersions == [14])
        // 4,000 courses (a walk's plan over a few is a sort), the shared half another runner's, the
        // private half the caller's.
        try database.adminSQL(
            """
            INSERT INTO course (owner, title, source_format, content_hash, distance_m, point_count, stats, geometry,
                                is_uploaded)
            SELECT CASE WHEN i % 2 = 0 THEN 'x' ELSE current_user END, 'a', 'gpx', 'h' || i, i, 1, '{}', '\\x00',
                   i % 2 = 0
            FROM generate_series(1, 4000) AS i;
            INSERT INTO course_search (course_id, created_ms, title, description, departure, tokens, title_initials,
                                       description_initials, departure_initials)
            SELECT id, id, '올림픽 a ' || id, 'b', '잠실 a', '{ta}', 'ㅇㄹㅍ a ' || id, 'b', 'ㅈㅅ a' FROM course;
            """)
        let vacuumed = try database.adminSQL("VACUUM (ANALYZE) course_search")
        #expect(vacuumed.status == 0, "\(vacuumed.stderr)")
        let walks = [
            ("ARRAY['a']", "ARRAY[NULL]", 0, 0),  // a plain keyword
            ("ARRAY[NULL]", "ARRAY['ㅇㄹㅍ']", 1, 0),  // initials, in the title
            ("ARRAY['a', '잠']", "ARRAY[NULL, 'ㅈㅅ']", 1, 2),  // mixed: the texts come back
        ]
        let orders = [("date", "newest"), ("scrap", "scraps"), ("distance", "distance")]
        for (sort, order) in orders {
            for sharedOnly in [true, false] {
                let index = "course_search_\(sharedOnly ? "shared_" : "")\(order)"
                for (needles, initials, inTitle, inDeparture) in walks {
                    // `auto_explain` sends the plan of the function's own query as a notice.
                    let explained = try database.adminSQL(
                        """
                        LOAD 'auto_explain'; SET auto_explain.log_min_duration = 0;
                        SET auto_explain.log_nested_statements = on; SET auto_explain.log_analyze = on;
                        SET auto_explain.log_timing = off; SET auto_explain.log_level = notice;
                        SELECT count(*) FROM runnect_search_page('{}', \(needles), \(initials), \(inTitle), \(inDeparture),
                                                                 \(sharedOnly), '\(sort)', 50, 0, NULL);
                        """)
                    let walk = "\(needles) \(initials) \(inTitle) \(inDeparture), \(sort), shared only \(sharedOnly)"
                    #expect(explained.stdout.split(separator: "\n").last == "50", "\(walk)")
                    // Distance order is ascending: its index is walked forward.
                    let scan = "Index Only Scan\(sort == "distance" ? "" : " Backward") using \(index) on course_search"
                    #expect(explained.stderr.contains(scan), "\(walk)")
                    #expect(explained.stderr.contains("Heap Fetches: 0"), "\(walk): \(explained.stderr)")
                }
            }
        }
    }

    /// Version 15 over a database of version 14: a course an earlier store wrote with a start
    /// of NaN (its first point without a position) is mended to its path's start; a row no store
    /// writes stops the migration, named, with nothing applied; once it is deleted, the
    /// migration validates every constraint.
    @Test func version15MendsNaNEndsAndNamesRowsThatFail() async throws {
        let database = try ClusterDatabase()
        let url = try database.adminURL
        #expect(try await PostgresAdministration.initialize(url, upTo: 14).appliedVersions == Array(1...14))
        let drafts = try PostgresBackendTests.drafts()
        var ids: [Int64] = []
        try await PostgresSession.with(url) { session in
            for draft in drafts.prefix(3) {
                var bindings = PostgresBindings()
                let row = try PostgresTransaction.appendCourse(draft, owner: "x", to: &bindings)
                let sql =
                    "INSERT INTO course (\(row.columns.joined(separator: ", "))) VALUES \(row.placeholders) RETURNING id"
                ids.append(
                    try await session.query(PostgresQuery(unsafeSQL: sql, binds: bindings))[0].decode(Int64.self))
            }
        }
        try database.adminSQL("UPDATE course SET start_lat = 'NaN', start_lon = 'NaN' WHERE id = \(ids[0])")
        try database.adminSQL("UPDATE course SET stats = '{}' WHERE id = \(ids[2])")

        await #expect(
            throws: PostgresAdministrationError.rowsFailChecks(
                table: "course", constraint: "course_stats_valid", ids: [ids[2]])
        ) { try await PostgresAdministration.initialize(url) }
        #expect(try database.adminSQL("SELECT max(version) FROM schema_version").stdout.trimmed == "14")
        #expect(try database.adminSQL("SELECT count(*) FROM course WHERE start_lat = 'NaN'").stdout.trimmed == "1")

        try database.adminSQL("DELETE FROM course WHERE id = \(ids[2])")
        // Up to version 17: version 18 adds a check of its own.
        #expect(try await PostgresAdministration.initialize(url, upTo: 17).appliedVersions == [15, 16, 17])
        let mended = try database.adminSQL(
            """
            SELECT start_lat = ST_Y(ST_StartPoint(ST_GeometryN(path::geometry, 1)))
                   AND start_lon = ST_X(ST_StartPoint(ST_GeometryN(path::geometry, 1)))
                   AND ST_Equals(start_point, ST_StartPoint(ST_GeometryN(path::geometry, 1)))
            FROM course WHERE id = \(ids[0])
            """)
        #expect(mended.stdout.trimmed == "t", "\(mended.stderr)")
        let checks = try database.adminSQL(
            "SELECT count(*), bool_and(convalidated) FROM pg_constraint WHERE conname ~ '^(course|record)_' AND contype = 'c'"
        )
        #expect(checks.stdout.trimmed == "\(DerivedChecksMigration.checks.filter { !$0.isTrigger }.count)|t")
    }

    /// Version 18 over a database of version 17: every name the store holds becomes a runner (no
    /// role made), with its counters and the stamps they reach, an account row each; from then
    /// on, triggers count on.
    @Test func version18MakesARunnerOfEveryNameWithItsStamps() async throws {
        let database = try ClusterDatabase()
        let url = try database.adminURL
        #expect(try await PostgresAdministration.initialize(url, upTo: 17).appliedVersions == Array(1...17))
        let drafts = try PostgresBackendTests.drafts()
        var ids: [Int64] = []
        try await PostgresSession.with(url) { session in
            for draft in drafts.prefix(3) {
                var bindings = PostgresBindings()
                let row = try PostgresTransaction.appendCourse(draft, owner: "x", to: &bindings)
                let sql =
                    "INSERT INTO course (\(row.columns.joined(separator: ", "))) VALUES \(row.placeholders) RETURNING id"
                ids.append(
                    try await session.query(PostgresQuery(unsafeSQL: sql, binds: bindings))[0].decode(Int64.self))
            }
        }
        try database.adminSQL(
            """
            UPDATE course SET is_uploaded = true, uploaded_at = now() WHERE id = \(ids[0]);
            INSERT INTO scrap (course_id, "user") VALUES (\(ids[0]), 'y');
            INSERT INTO record (owner, course_id, title, source_format, content_hash, distance_m, point_count,
                course_time_s, course_distance_m, match_coverage, stats, geometry)
            VALUES ('z', \(ids[0]), 'run', 'fit', encode(sha256('z'), 'hex'), 1500, 2, 600, 1419.019, 1,
                    '{"points": 2, "segments": 1, "distance_m": 1500, "elapsed_time_s": 600}', '\\x01'::bytea);
            INSERT INTO deleted_course (id, owner, distance_m, geometry) VALUES (1000, 'w', 1, '\\x01'::bytea)
            """)
        #expect(try await PostgresAdministration.initialize(url).appliedVersions == [18, 19, 20])
        let runners = try database.adminSQL(
            """
            SELECT n.name, n.drawn_count, n.upload_count, n.scrap_count, n.run_count, n.provider,
                   (SELECT string_agg(s.stamp, ',' ORDER BY s.id) FROM runner_stamp s WHERE s.runner_id = n.id),
                   EXISTS (SELECT 1 FROM runner_account a WHERE a.runner_id = n.id)
            FROM runner n ORDER BY n.name
            """)
        #expect(
            runners.stdout.trimmed
                == "w|0|0|0|0|CLI||t\nx|3|1|0|0|CLI|c1,u1|t\ny|0|0|1|0|CLI|s1|t\nz|0|0|0|1|CLI|r1|t")
        #expect(
            try database.adminSQL("SELECT count(*) FROM pg_roles WHERE rolname IN ('w', 'x', 'y', 'z')").stdout.trimmed
                == "0")
        // Counted on by the triggers: a course shared, another scrap.
        try database.adminSQL(
            """
            UPDATE course SET is_uploaded = true WHERE id = \(ids[1]);
            INSERT INTO scrap (course_id, "user") VALUES (\(ids[1]), 'y')
            """)
        let counted = try database.adminSQL(
            "SELECT string_agg(name || ':' || upload_count || ':' || scrap_count, ' ' ORDER BY name) FROM runner")
        #expect(counted.stdout.trimmed == "w:0:0 x:2:0 y:0:2 z:0:0")
    }

    @Test func twoInitsAtOnceApplyTheSchemaOnce() async throws {
        let database = try ClusterDatabase()
        let url = try database.adminURL
        async let first = PostgresAdministration.initialize(url)
        async let second = PostgresAdministration.initialize(url)
        let reports = try await [first, second]
        #expect(
            reports.map(\.appliedVersions).sorted { $0.count < $1.count } == [
                [], Array(1...PostgresSchema.supportedVersion),
            ])
    }

    @Test func aNewerSchemaIsRefusedBeforeAnythingIsWritten() async throws {
        let database = try ClusterDatabase()
        try database.adminSQL(
            "CREATE TABLE schema_version (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz)")
        try database.adminSQL("INSERT INTO schema_version VALUES (1, 'v1-courses-records-search', now())")
        let newer = PostgresSchema.supportedVersion + 1
        try database.adminSQL("INSERT INTO schema_version VALUES (\(newer), 'from-the-future', now())")
        let url = try database.adminURL
        await #expect(throws: StoreError.newerSchema(found: newer, supported: PostgresSchema.supportedVersion)) {
            try await PostgresAdministration.initialize(url)
        }
        await #expect(throws: StoreError.newerSchema(found: newer, supported: PostgresSchema.supportedVersion)) {
            try await PostgresAdministration.summary(url)
        }
        // Not even the extension: the database is as it was.
        let objects = try database.adminSQL(
            """
            SELECT (SELECT count(*) FROM pg_extension WHERE extname = 'postgis'),
                   (SELECT count(*) FROM pg_tables WHERE schemaname = 'public')
            """)
        #expect(objects.stdout.trimmed == "0|1")
    }

    @Test func aMigrationOfTheSameVersionButAnotherNameIsNewer() async throws {
        let database = try ClusterDatabase()
        try database.adminSQL(
            "CREATE TABLE schema_version (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz)")
        try database.adminSQL("INSERT INTO schema_version VALUES (1, 'v1-something-else', now())")
        await #expect(throws: StoreError.newerSchema(found: 1, supported: PostgresSchema.supportedVersion)) {
            try await PostgresAdministration.initialize(try database.adminURL)
        }
    }

    @Test func summaryOfAnEmptyStoreAndOfAnUninitialisedDatabase() async throws {
        let database = try ClusterDatabase()
        let url = try database.adminURL
        await #expect(throws: PostgresAdministrationError.notInitialized(database: database.name)) {
            try await PostgresAdministration.summary(url)
        }
        _ = try await PostgresAdministration.initialize(url)
        let summary = try await PostgresAdministration.summary(url)
        #expect(
            summary.schemaVersion == PostgresSchema.supportedVersion
                && summary.supportedSchemaVersion == PostgresSchema.supportedVersion)
        #expect(summary.courses == 0 && summary.scraps == 0)
        #expect(summary.path == url.description)
    }

    @Test func aServerThatIsNotThereIsAClearError() async throws {
        let url = try PostgresURL("postgresql://nobody@127.0.0.1:1/x?sslmode=disable", environment: [:])
        do {
            _ = try await PostgresAdministration.summary(url)
            Issue.record("connected to port 1")
        } catch let error as StoreError {
            guard case .cannotOpen(let path, _) = error else { throw error }
            #expect(path == "postgresql://nobody@127.0.0.1:1/x?sslmode=disable")
        }
    }
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}

extension Data {
    var hexString: String { map { String(format: "%02x", $0) }.joined() }
}
