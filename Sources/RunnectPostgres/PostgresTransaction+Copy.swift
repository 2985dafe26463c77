import Foundation
import PostgresNIO
import RunnectStore

extension PostgresTransaction {
    // MARK: - Copying a store (as an administrator: the tables' owner reads and writes every row)

    func storedCourses(after id: Int64, limit: Int) async throws -> [StoredCourse] {
        try await query(
            """
            SELECT id, owner, title, description, departure_region, departure_city, departure_town,
                   departure_detail, departure_name, source_format, content_hash, created_at, is_uploaded,
                   uploaded_at, stats::text, geometry
            FROM course WHERE id > \(id) ORDER BY id LIMIT \(limit)
            """
        ).rows.map { row in
            let r = row.makeRandomAccess()
            return StoredCourse(
                id: try r[0].decode(Int64.self), owner: try r[1].decode(String.self),
                title: try r[2].decode(String.self), description: try r[3].decode(String?.self),
                departure: try Self.departure(r, from: 4), sourceFormat: try r[9].decode(String.self),
                contentHash: try r[10].decode(String.self), createdAt: try r[11].decode(Date.self),
                isUploaded: try r[12].decode(Bool.self), uploadedAt: try r[13].decode(Date?.self),
                statsJSON: try r[14].decode(String.self), geometry: try r[15].decode(Data.self))
        }
    }

    func storedRecords(after id: Int64, limit: Int) async throws -> [NewRecord] {
        try await query(
            """
            SELECT id, owner, course_id, title, source_format, content_hash, created_at, start_time, distance_m,
                   point_count, device_timer_time_s, course_time_s, course_distance_m, match_coverage,
                   stats::text, geometry, reported, reported_pace_s, public_course
            FROM record WHERE id > \(id) ORDER BY id LIMIT \(limit)
            """
        ).rows.map { row in
            let r = row.makeRandomAccess()
            var record = NewRecord(
                id: try r[0].decode(Int64.self), owner: try r[1].decode(String.self),
                courseID: try r[2].decode(Int64.self), title: try r[3].decode(String.self),
                sourceFormat: try r[4].decode(String.self), contentHash: try r[5].decode(String.self),
                createdAt: try r[6].decode(Date.self), startTime: try r[7].decode(Date?.self),
                distanceMeters: try r[8].decode(Double.self), pointCount: try r[9].decode(Int.self),
                deviceTimerSeconds: try r[10].decode(Double?.self), courseTimeSeconds: try r[11].decode(Double.self),
                courseDistanceMeters: try r[12].decode(Double.self), matchCoverage: try r[13].decode(Double.self),
                statsJSON: try r[14].decode(String.self), geometry: try r[15].decode(Data.self))
            record.marks = RecordMarks(
                isReported: try r[16].decode(Bool.self), reportedPaceSeconds: try r[17].decode(Double?.self),
                isFromSharedPage: try r[18].decode(Bool.self))
            return record
        }
    }

    func storedScraps() async throws -> [StoredScrap] {
        try await query(#"SELECT course_id, "user", created_at FROM scrap ORDER BY course_id, "user""#).rows.map {
            row in
            let r = row.makeRandomAccess()
            return StoredScrap(
                courseID: try r[0].decode(Int64.self), user: try r[1].decode(String.self),
                createdAt: try r[2].decode(Date.self))
        }
    }

    func storedUsers() async throws -> [String] {
        try await column(
            String.self,
            PostgresQuery(
                unsafeSQL: #"SELECT owner FROM course UNION SELECT owner FROM record UNION SELECT "user" FROM scrap"#))
    }

    func courseIdentities(ids: [Int64]) async throws -> [Int64: StoredIdentity] {
        guard !ids.isEmpty else { return [:] }
        var found: [Int64: StoredIdentity] = [:]
        for row in try await query("SELECT id, owner, content_hash FROM course WHERE id = ANY(\(ids))").rows {
            let (id, owner, hash) = try row.decode((Int64, String, String).self)
            found[id] = StoredIdentity(owner: owner, contentHash: hash)
        }
        return found
    }

    /// Drafts inserted by three statements, each one column an array parameter
    /// (``UnnestInsert``): the courses, their pieces, their search entries. One insert a course
    /// paid a round trip and a statement each for the row, its entry and reading it back (455
    /// courses/s on 100,000, `runnect-bench pg`); `VALUES` lists of 250 courses spent 12 % of
    /// the server's time parsing and planning them, by `perf`.
    func insertCopiedCourses(_ drafts: [CourseDraft]) async throws -> (index: Int, existingID: Int64)? {
        guard !drafts.isEmpty else { return nil }
        guard drafts.allSatisfy({ $0.isPreset && $0.record.id != nil }) else {
            throw StoreError.database("a copied course needs its id and owner")
        }
        try await execute(Self.copySettings)
        let records = drafts.map(\.record)
        var courses = UnnestInsert(into: "course")
        try courses.column("id", "bigint", records.map(\.id))
        try courses.column("owner", "text", records.map(\.owner))
        try courses.column("title", "text", records.map(\.title))
        try courses.column("description", "text", records.map(\.description))
        try courses.column("departure_region", "text", records.map(\.departureRegion))
        try courses.column("departure_city", "text", records.map(\.departureCity))
        try courses.column("departure_town", "text", records.map(\.departureTown))
        try courses.column("departure_detail", "text", records.map(\.departureDetail))
        try courses.column("departure_name", "text", records.map(\.departureName))
        try courses.column("source_format", "text", records.map(\.sourceFormat))
        try courses.column("content_hash", "text", records.map(\.contentHash))
        let createdAt = records.map { Self.milliseconds($0.createdAt) }
        try courses.column("created_at", "timestamptz", createdAt)
        try courses.column("is_uploaded", "boolean", records.map(\.isUploaded))
        try courses.column("uploaded_at", "timestamptz", records.map { $0.uploadedAt.map(Self.milliseconds) })
        try courses.column("scrap_count", "integer", records.map { Int32($0.scrapCount) })
        try courses.column("distance_m", "float8", records.map(\.distanceMeters))
        try courses.column("point_count", "integer", records.map { Int32($0.pointCount) })
        try courses.column("stats", "text", drafts.map(\.statsJSON)) { "\($0)::json" }
        try courses.column("geometry", "bytea", records.map { ByteBuffer(bytes: $0.geometry) })
        let paths = drafts.map { Self.pathWKB($0.path).map { ByteBuffer(bytes: $0) } }
        try courses.column("path", "bytea", paths) { "ST_GeogFromWKB(\($0))" }
        let bounds = drafts.map(\.bounds)
        try courses.column("start_lat", "float8", bounds.map { $0?.start.latitude })
        try courses.column("start_lon", "float8", bounds.map { $0?.start.longitude })
        try courses.column("finish_lat", "float8", bounds.map { $0?.finish.latitude })
        try courses.column("finish_lon", "float8", bounds.map { $0?.finish.longitude })
        try courses.column("path_m", "float8", bounds.map { $0?.pathMeters })
        let inserted = Set(
            try await column(Int64.self, courses.query("ON CONFLICT (owner, content_hash) DO NOTHING RETURNING id")))
        if let missing = drafts.firstIndex(where: { !inserted.contains($0.record.id!) }) {
            let draft = drafts[missing]
            let existing = try await value(
                Int64.self,
                """
                SELECT id FROM course WHERE owner = \(draft.record.owner)
                AND content_hash = \(draft.record.contentHash)
                """)
            return (missing, existing ?? draft.record.id!)
        }
        try await insertPieces(drafts.map { ($0.record.id!, $0) })
        var entries = UnnestInsert(into: "course_search")
        let rows = drafts.map(\.searchEntry.text)
        try entries.column("course_id", "bigint", records.map(\.id))
        try entries.column("created_ms", "bigint", createdAt.map(Self.wholeMilliseconds))
        try entries.column("title", "text", rows.map(\.title))
        try entries.column("description", "text", rows.map(\.description))
        try entries.column("departure", "text", rows.map(\.departure))
        let initials = rows.map(\.initials)
        try entries.column("title_initials", "text", initials.map(\.title))
        try entries.column("description_initials", "text", initials.map(\.description))
        try entries.column("departure_initials", "text", initials.map(\.departure))
        // One text a row (a two-dimensional array must be rectangular), cut on the server: the
        // token document is its tokens with one space between (none at all: an empty array).
        try entries.column("tokens", "text", drafts.map(\.searchEntry.postgresTokenDocument)) {
            "string_to_array(\($0), ' ')"
        }
        try await query(entries.query())
        return nil
    }

    /// The copy's transaction settings: its commits do not wait for the WAL to reach the disk
    /// (a crash of the server may lose the last few, which running the idempotent copy again
    /// restores), and large values are compressed by LZ4 where the server has it: PGLZ, the
    /// default, spent half the server's time inserting courses trying to compress their
    /// activities (already compressed), by `perf`.
    static let copySettings = """
        SELECT set_config('synchronous_commit', 'off', true),
               (SELECT set_config('default_toast_compression', 'lz4', true) FROM pg_settings
                WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals))
        """

    func recordIdentity(id: Int64) async throws -> StoredIdentity? {
        try await query("SELECT owner, content_hash FROM record WHERE id = \(id)").rows.first.map { row in
            let (owner, hash) = try row.decode((String, String).self)
            return StoredIdentity(owner: owner, contentHash: hash)
        }
    }

    func insertScrap(_ scrap: StoredScrap) async throws -> Bool {
        try await !query(
            """
            INSERT INTO scrap (course_id, "user", created_at)
            VALUES (\(scrap.courseID), \(scrap.user), \(Self.milliseconds(scrap.createdAt)))
            ON CONFLICT DO NOTHING RETURNING 1
            """
        ).rows.isEmpty
    }

    func storedDeletedCourses() async throws -> [StoredDeletedCourse] {
        try await query(
            """
            SELECT id, owner, distance_m, departure_region, departure_city, departure_town, departure_detail,
                   departure_name, geometry, deleted_at
            FROM deleted_course ORDER BY id
            """
        ).rows.map { row in
            let r = row.makeRandomAccess()
            return StoredDeletedCourse(
                id: try r[0].decode(Int64.self), owner: try r[1].decode(String.self),
                distanceMeters: try r[2].decode(Double.self), departure: try Self.departure(r, from: 3),
                geometry: try r[8].decode(Data.self), deletedAt: try r[9].decode(Date.self))
        }
    }

    func insertDeletedCourses(_ courses: [StoredDeletedCourse]) async throws -> Int {
        var added = 0
        for course in courses {
            if try await !query("SELECT 1 FROM course WHERE id = \(course.id)").rows.isEmpty {
                throw StoreError.copyConflict(
                    kind: "deleted course", id: course.id, reason: "the destination holds a course under that id")
            }
            let departure = course.departure
            added += try await query(
                """
                INSERT INTO deleted_course (id, owner, distance_m, departure_region, departure_city, departure_town,
                    departure_detail, departure_name, geometry, deleted_at)
                VALUES (\(course.id), \(course.owner), \(course.distanceMeters), \(departure?.region),
                    \(departure?.city), \(departure?.town), \(departure?.detail), \(departure?.name),
                    \(course.geometry), \(Self.milliseconds(course.deletedAt)))
                ON CONFLICT (id) DO NOTHING RETURNING 1
                """
            ).rows.count
        }
        if let last = courses.map(\.id).max() {
            try await query(
                """
                SELECT setval(sequence, greatest(\(last), coalesce(pg_sequence_last_value(sequence), 0)))
                FROM CAST(pg_get_serial_sequence('course', 'id') AS regclass) AS sequence
                """)
        }
        return added
    }

    /// Moves the id sequences past the ids copied, so that new rows do not collide with them
    /// (never back: ids of rows deleted before are not given again).
    func identitiesCopied() async throws {
        for table in ["course", "record"] {
            try await execute(
                """
                SELECT setval(sequence, greatest(max(id), coalesce(pg_sequence_last_value(sequence), 0)))
                FROM \(table), CAST(pg_get_serial_sequence('\(table)', 'id') AS regclass) AS sequence
                GROUP BY sequence HAVING max(id) IS NOT NULL
                """)
        }
    }
}
