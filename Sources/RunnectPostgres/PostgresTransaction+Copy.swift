import Foundation
import PostgresNIO
import RunnectStore

extension PostgresTransaction {
    // MARK: - Copying a store (as an administrator: the tables' owner reads and writes every row)

    func storedCourses(after id: Int64, limit: Int) throws -> [StoredCourse] {
        try query(
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

    func storedRecords(after id: Int64, limit: Int) throws -> [NewRecord] {
        try query(
            """
            SELECT id, owner, course_id, title, source_format, content_hash, created_at, start_time, distance_m,
                   point_count, device_timer_time_s, course_time_s, course_distance_m, match_coverage,
                   stats::text, geometry
            FROM record WHERE id > \(id) ORDER BY id LIMIT \(limit)
            """
        ).rows.map { row in
            let r = row.makeRandomAccess()
            return NewRecord(
                id: try r[0].decode(Int64.self), owner: try r[1].decode(String.self),
                courseID: try r[2].decode(Int64.self), title: try r[3].decode(String.self),
                sourceFormat: try r[4].decode(String.self), contentHash: try r[5].decode(String.self),
                createdAt: try r[6].decode(Date.self), startTime: try r[7].decode(Date?.self),
                distanceMeters: try r[8].decode(Double.self), pointCount: try r[9].decode(Int.self),
                deviceTimerSeconds: try r[10].decode(Double?.self), courseTimeSeconds: try r[11].decode(Double.self),
                courseDistanceMeters: try r[12].decode(Double.self), matchCoverage: try r[13].decode(Double.self),
                statsJSON: try r[14].decode(String.self), geometry: try r[15].decode(Data.self))
        }
    }

    func storedScraps() throws -> [StoredScrap] {
        try query(#"SELECT course_id, "user", created_at FROM scrap ORDER BY course_id, "user""#).rows.map { row in
            let r = row.makeRandomAccess()
            return StoredScrap(
                courseID: try r[0].decode(Int64.self), user: try r[1].decode(String.self),
                createdAt: try r[2].decode(Date.self))
        }
    }

    func storedUsers() throws -> [String] {
        try column(
            String.self,
            PostgresQuery(
                unsafeSQL: #"SELECT owner FROM course UNION SELECT owner FROM record UNION SELECT "user" FROM scrap"#))
    }

    func courseIdentity(id: Int64) throws -> StoredIdentity? {
        try query("SELECT owner, content_hash FROM course WHERE id = \(id)").rows.first.map { row in
            let (owner, hash) = try row.decode((String, String).self)
            return StoredIdentity(owner: owner, contentHash: hash)
        }
    }

    func recordIdentity(id: Int64) throws -> StoredIdentity? {
        try query("SELECT owner, content_hash FROM record WHERE id = \(id)").rows.first.map { row in
            let (owner, hash) = try row.decode((String, String).self)
            return StoredIdentity(owner: owner, contentHash: hash)
        }
    }

    func insertScrap(_ scrap: StoredScrap) throws -> Bool {
        try !query(
            """
            INSERT INTO scrap (course_id, "user", created_at)
            VALUES (\(scrap.courseID), \(scrap.user), \(Self.milliseconds(scrap.createdAt)))
            ON CONFLICT DO NOTHING RETURNING 1
            """
        ).rows.isEmpty
    }

    /// Moves the id sequences past the ids copied, so that new rows do not collide with them
    /// (never back: ids of rows deleted before are not given again).
    func identitiesCopied() throws {
        for table in ["course", "record"] {
            try execute(
                """
                SELECT setval(sequence, greatest(max(id), coalesce(pg_sequence_last_value(sequence), 0)))
                FROM \(table), CAST(pg_get_serial_sequence('\(table)', 'id') AS regclass) AS sequence
                GROUP BY sequence HAVING max(id) IS NOT NULL
                """)
        }
    }
}
