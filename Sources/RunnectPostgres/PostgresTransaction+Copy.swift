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

    func courseIdentities(ids: [Int64]) throws -> [Int64: StoredIdentity] {
        guard !ids.isEmpty else { return [:] }
        var found: [Int64: StoredIdentity] = [:]
        for row in try query("SELECT id, owner, content_hash FROM course WHERE id = ANY(\(ids))").rows {
            let (id, owner, hash) = try row.decode((Int64, String, String).self)
            found[id] = StoredIdentity(owner: owner, contentHash: hash)
        }
        return found
    }

    /// Drafts inserted by one statement per ``copyRowsPerStatement`` courses, and their search
    /// entries by another: one insert a course paid a round trip and a statement each for the
    /// row, its entry, and reading it back (455 courses/s on 100,000, `runnect-bench pg`).
    func insertCopiedCourses(_ drafts: [CourseDraft]) throws -> (index: Int, existingID: Int64)? {
        for start in stride(from: 0, to: drafts.count, by: Self.copyRowsPerStatement) {
            let chunk = Array(drafts[start..<min(start + Self.copyRowsPerStatement, drafts.count)])
            var bindings = PostgresBindings()
            var columns: [String] = []
            var rows: [String] = []
            var createdAt: [Date] = []
            for draft in chunk {
                guard draft.isPreset, draft.record.id != nil else {
                    throw StoreError.database("a copied course needs its id and owner")
                }
                let row = try Self.appendCourse(draft, owner: draft.record.owner, to: &bindings)
                columns = row.columns
                rows.append(row.placeholders)
                createdAt.append(row.createdAt)
            }
            let sql = """
                INSERT INTO course (\(columns.joined(separator: ", "))) VALUES \(rows.joined(separator: ", "))
                ON CONFLICT (owner, content_hash) DO NOTHING RETURNING id
                """
            let inserted = Set(try column(Int64.self, PostgresQuery(unsafeSQL: sql, binds: bindings)))
            if let missing = chunk.firstIndex(where: { !inserted.contains($0.record.id!) }) {
                let draft = chunk[missing]
                let existing = try value(
                    Int64.self,
                    """
                    SELECT id FROM course WHERE owner = \(draft.record.owner)
                    AND content_hash = \(draft.record.contentHash)
                    """)
                return (start + missing, existing ?? draft.record.id!)
            }
            try insertPieces(chunk.map { ($0.record.id!, $0) })
            var entries = PostgresBindings()
            var values: [String] = []
            for (draft, date) in zip(chunk, createdAt) {
                let row = draft.searchEntry.row
                let n = entries.count
                entries.append(draft.record.id!)
                entries.append(Self.wholeMilliseconds(date))
                entries.append(row.title)
                entries.append(row.description)
                entries.append(row.departure)
                entries.append(draft.searchEntry.tokenDocument.split(separator: " ").map(String.init))
                values.append("(" + (1...6).map { "$\(n + $0)" }.joined(separator: ", ") + ")")
            }
            try query(
                PostgresQuery(
                    unsafeSQL: """
                        INSERT INTO course_search (course_id, created_ms, title, description, departure, tokens)
                        VALUES \(values.joined(separator: ", "))
                        """, binds: entries))
        }
        return nil
    }

    /// Courses a copy inserts by one statement (26 values each, under PostgreSQL's 65,535).
    static let copyRowsPerStatement = 250

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
