import Foundation
import PostgresNIO
import RunnectStore

extension PostgresAdministration {
    /// Search entries read at once by the check of their tokens.
    static let checkBatch = 2_000

    /// `runnect db check` on PostgreSQL, as the tables' owner (who sees every row past the
    /// row-level security policies), while runners go on reading and writing.
    ///
    /// One `REPEATABLE READ READ ONLY` transaction (a snapshot, so that no write half-way through
    /// is taken for a problem) checks what the store derives: every search entry's tokens and
    /// initials are those of its text (as a new entry's would be) and its copied columns its
    /// course's; every course has an entry and path pieces; each course's counters count its
    /// scraps and records; every record's course is stored or kept as deleted. Then, where
    /// the `amcheck` extension is installed and the role may call it, `bt_index_check` of every
    /// B-tree index of the schema `public`, one statement each (a damaged index is an error of
    /// that statement alone).
    ///
    /// - Throws: ``PostgresAdministrationError/notTablesOwner(role:owner:)``,
    ///   ``PostgresAdministrationError/notInitialized(database:)``, `StoreError.newerSchema(found:supported:)`,
    ///   `StoreError.database(_:)` for what the server refuses.
    package static func check(_ url: PostgresURL) async throws -> StoreCheckFindings {
        try await PostgresSession.with(url) { session in
            let version = try await PostgresSchema.checkedVersion(session)
            guard version > 0 else {
                throw PostgresAdministrationError.notInitialized(
                    database: try await session.query("SELECT current_database()::text")[0].decode(String.self))
            }
            try await requireTablesOwner(session)
            try await session.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            let checks: [StoreCheckReport.Check]
            let images: [StoredImage]
            do {
                checks = [
                    try await checkSearchEntries(session), try await checkSearchTokens(session),
                    try await checkPieces(session), try await checkCounters(session),
                    try await checkRecordCourses(session),
                ]
                images = try await session.query(
                    """
                    SELECT id, false, image FROM course WHERE image IS NOT NULL
                    UNION ALL SELECT id, true, image FROM deleted_course WHERE image IS NOT NULL
                    ORDER BY 1
                    """
                ).map { row in
                    let (id, deleted, name) = try row.decode((Int64, Bool, String).self)
                    return StoredImage(courseID: id, isDeleted: deleted, name: name)
                }
                try await session.query("COMMIT")
            } catch {
                _ = try? await session.query("ROLLBACK")
                throw error
            }
            return StoreCheckFindings(
                backend: "postgresql", schemaVersion: version, checks: checks + [try await checkIndexes(session)],
                images: images)
        }
    }

    /// The ids (first column) the query selects, each a problem `message` makes.
    private static func addEach(
        _ session: PostgresSession, _ query: PostgresQuery, to check: inout StoreCheckReport.Check,
        _ message: (PostgresRow) throws -> String
    ) async throws {
        for row in try await session.query(query) { check.add(try message(row)) }
    }

    private static func count(_ session: PostgresSession, _ query: PostgresQuery) async throws -> Int {
        try await session.query(query)[0].decode(Int.self)
    }

    /// One entry for every course, and each entry's copies of its course's columns (what the
    /// search reads instead of the course: its owner, sharing, scrap count, length, date).
    static func checkSearchEntries(_ session: PostgresSession) async throws -> StoreCheckReport.Check {
        var check = StoreCheckReport.Check(name: "search entries")
        try await addEach(
            session,
            """
            SELECT id FROM course c WHERE NOT EXISTS (SELECT 1 FROM course_search s WHERE s.course_id = c.id)
            ORDER BY id
            """, to: &check
        ) { "course #\(try $0.decode(Int64.self)) has no search entry: searches never find it" }
        try await addEach(
            session,
            """
            SELECT s.course_id FROM course_search s JOIN course c ON c.id = s.course_id
            WHERE s.owner <> c.owner OR s.is_uploaded <> c.is_uploaded OR s.scrap_count <> c.scrap_count
               OR s.distance_m <> c.distance_m
               OR s.created_ms <> round(extract(epoch FROM c.created_at) * 1000)::bigint
            ORDER BY s.course_id
            """, to: &check
        ) {
            "course #\(try $0.decode(Int64.self))'s search entry disagrees with the course "
                + "(owner, sharing, scrap count, length or date): lists and searches may show it wrongly"
        }
        check.examined = try await count(session, "SELECT count(*)::bigint FROM course")
        return check
    }

    /// Every entry's tokens (what the GIN index holds) and initials those its text gives, as
    /// indexing a course makes them: read a batch at a time, in id order.
    static func checkSearchTokens(_ session: PostgresSession) async throws -> StoreCheckReport.Check {
        var check = StoreCheckReport.Check(name: "search tokens")
        var after: Int64 = 0
        var examined = 0
        while true {
            let rows = try await session.query(
                """
                SELECT course_id, title, description, departure, tokens, title_initials, description_initials,
                       departure_initials
                FROM course_search WHERE course_id > \(after) ORDER BY course_id LIMIT \(checkBatch)
                """)
            for row in rows {
                let (id, title, description, departure, tokens, titleInitials, descriptionInitials, departureInitials) =
                    try row.decode((Int64, String, String, String, [String], String, String, String).self)
                after = id
                examined += 1
                let text = SearchText(title: title, description: description, departure: departure)
                if tokens.sorted() != text.postgresTokenDocument.split(separator: " ").map(String.init).sorted() {
                    check.add(
                        "course #\(id)'s search tokens are not those of its text: searches may miss or wrongly find it")
                }
                let initials = text.initials
                if (titleInitials, descriptionInitials, departureInitials)
                    != (initials.title, initials.description, initials.departure)
                {
                    check.add("course #\(id)'s search initials are not those of its text: 초성 searches may miss it")
                }
            }
            if rows.count < checkBatch { break }
        }
        check.examined = examined
        return check
    }

    /// Every course has its path pieces, which near-me search reads.
    static func checkPieces(_ session: PostgresSession) async throws -> StoreCheckReport.Check {
        var check = StoreCheckReport.Check(name: "path pieces")
        try await addEach(
            session,
            """
            SELECT id FROM course c WHERE NOT EXISTS (SELECT 1 FROM course_piece p WHERE p.course_id = c.id)
            ORDER BY id
            """, to: &check
        ) { "course #\(try $0.decode(Int64.self)) has no path pieces: near-me search never finds it" }
        check.examined = try await count(session, "SELECT count(*)::bigint FROM course_piece")
        return check
    }

    /// Each course's `scrap_count` and `record_count` against its scraps and records.
    static func checkCounters(_ session: PostgresSession) async throws -> StoreCheckReport.Check {
        var check = StoreCheckReport.Check(name: "counters")
        try await addEach(
            session,
            """
            SELECT c.id, c.scrap_count, (SELECT count(*) FROM scrap s WHERE s.course_id = c.id)::bigint
            FROM course c
            WHERE c.scrap_count <> (SELECT count(*) FROM scrap s WHERE s.course_id = c.id)
            ORDER BY c.id
            """, to: &check
        ) {
            let (id, counted, found) = try $0.decode((Int64, Int, Int).self)
            return "course #\(id)'s scrap count is \(counted) but it has \(found) scrap(s)"
        }
        try await addEach(
            session,
            """
            SELECT c.id, c.record_count, (SELECT count(*) FROM record r WHERE r.course_id = c.id)::bigint
            FROM course c
            WHERE c.record_count <> (SELECT count(*) FROM record r WHERE r.course_id = c.id)
            ORDER BY c.id
            """, to: &check
        ) {
            let (id, counted, found) = try $0.decode((Int64, Int, Int).self)
            return "course #\(id)'s record count is \(counted) but it has \(found) record(s)"
        }
        check.examined = try await count(session, "SELECT count(*)::bigint FROM course")
        return check
    }

    /// Every record's course stored or kept as deleted; no course both.
    static func checkRecordCourses(_ session: PostgresSession) async throws -> StoreCheckReport.Check {
        var check = StoreCheckReport.Check(name: "records' courses")
        try await addEach(
            session,
            """
            SELECT id, course_id FROM record r
            WHERE NOT EXISTS (SELECT 1 FROM course WHERE id = r.course_id)
              AND NOT EXISTS (SELECT 1 FROM deleted_course WHERE id = r.course_id)
            ORDER BY id
            """, to: &check
        ) {
            let (id, course) = try $0.decode((Int64, Int64).self)
            return "record:\(id) is of course #\(course), neither stored nor kept as deleted"
        }
        try await addEach(
            session, "SELECT id FROM deleted_course d WHERE EXISTS (SELECT 1 FROM course WHERE id = d.id) ORDER BY id",
            to: &check
        ) { "course #\(try $0.decode(Int64.self)) is both stored and kept as deleted" }
        check.examined = try await count(session, "SELECT count(*)::bigint FROM record")
        return check
    }

    /// `amcheck`'s `bt_index_check` of each valid B-tree index of the schema `public` (the
    /// store's, PostGIS's `spatial_ref_sys` aside): skipped, saying why, where the extension is
    /// not installed or the role may not call it.
    static func checkIndexes(_ session: PostgresSession) async throws -> StoreCheckReport.Check {
        let name = "B-tree indexes (amcheck)"
        let schema = try await session.query(
            "SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'amcheck'"
        ).first?.decode(String.self)
        guard let schema else {
            return StoreCheckReport.Check(
                name: name, skipped: "the amcheck extension is not installed (a superuser: CREATE EXTENSION amcheck)")
        }
        let function = "\(RoleName.quote(schema)).bt_index_check(regclass)"
        let allowed = try await session.query("SELECT has_function_privilege(\(function), 'EXECUTE')")[0]
            .decode(Bool.self)
        guard allowed else {
            return StoreCheckReport.Check(
                name: name, skipped: "this role may not call \(function) (a superuser: GRANT EXECUTE ON FUNCTION …)")
        }
        var check = StoreCheckReport.Check(name: name)
        let indexes = try await session.query(
            """
            SELECT c.oid::regclass::text FROM pg_index i
            JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
            WHERE c.relnamespace = 'public'::regnamespace AND a.amname = 'btree' AND i.indisvalid AND i.indisready
              AND i.indrelid IS DISTINCT FROM to_regclass('public.spatial_ref_sys')
            ORDER BY 1
            """
        ).map { try $0.decode(String.self) }
        for index in indexes {
            do {
                try await session.query(
                    "SELECT \(unescaped: RoleName.quote(schema)).bt_index_check(\(index)::regclass)")
            } catch let error as StoreError {
                check.add("index \(index): \(error)")
            }
        }
        check.examined = indexes.count
        return check
    }
}
