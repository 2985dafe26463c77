import Foundation
import PostgresNIO
import RunnectKit
import RunnectStore

extension PostgresTransaction {
    // MARK: - Records

    func recordID(contentHash: String) async throws -> Int64? {
        try await value(Int64.self, "SELECT id FROM record WHERE owner = \(user) AND content_hash = \(contentHash)")
    }

    /// Through the GiST index on `start_point` (its boxes are rounded outwards, as the R*Tree's of
    /// SQLite, so a start on the edge is never missed), the finish checked exactly, every piece
    /// in one call of `runnect_course_starts` (schema version 19): a function of the tables'
    /// owner, because row-level security kept the index out of a runner's own query (a
    /// whole-table read a piece); it leaves out what the caller may not see, as row-level
    /// security would.
    func courseStarts(in pieces: [Bounds], finishingIn finishBox: Bounds) async throws -> [CourseStart] {
        guard !pieces.isEmpty else { return [] }
        let rows = try await query(
            """
            SELECT id, start_lat, start_lon, finish_lat, finish_lon, path_m
            FROM runnect_course_starts(\(pieces.map(\.minLongitude)), \(pieces.map(\.minLatitude)),
                                       \(pieces.map(\.maxLongitude)), \(pieces.map(\.maxLatitude)),
                                       \(finishBox.minLatitude), \(finishBox.maxLatitude),
                                       \(finishBox.minLongitude), \(finishBox.maxLongitude))
            """
        ).rows
        return try rows.map { row in
            let (id, startLat, startLon, finishLat, finishLon, pathMeters) = try row.decode(
                (Int64, Double, Double, Double, Double, Double).self)
            return CourseStart(
                id: id, start: Coordinate(latitude: startLat, longitude: startLon),
                finish: Coordinate(latitude: finishLat, longitude: finishLon), pathMeters: pathMeters)
        }
    }

    func canSee(course id: Int64) async throws -> Bool {
        try await value(
            Bool.self,
            """
            SELECT EXISTS (SELECT 1 FROM course c WHERE c.id = \(id) AND (c.owner = \(user) OR c.is_uploaded
                OR EXISTS (SELECT 1 FROM scrap x WHERE x.course_id = c.id AND x."user" = \(user))))
            """) ?? false
    }

    /// The counters follow by trigger (the course's, and the runner's with their stamps), and
    /// what the app adds (``NewRecord/marks``) is written with the record.
    func insertRecord(_ record: NewRecord) async throws -> Int64 {
        if let id = record.id {
            // A copy keeps the source's id (an administrator's insert: runners have no grant on it).
            try await query(
                """
                INSERT INTO record (id, owner, course_id, title, source_format, content_hash, created_at, start_time,
                    distance_m, point_count, device_timer_time_s, course_time_s, course_distance_m, match_coverage,
                    stats, geometry, reported, reported_pace_s, public_course)
                VALUES (\(id), \(record.owner), \(record.courseID), \(record.title), \(record.sourceFormat),
                    \(record.contentHash), \(Self.milliseconds(record.createdAt)),
                    \(record.startTime.map(Self.milliseconds)), \(record.distanceMeters), \(record.pointCount),
                    \(record.deviceTimerSeconds), \(record.courseTimeSeconds), \(record.courseDistanceMeters),
                    \(record.matchCoverage), \(record.statsJSON)::json, \(record.geometry), \(record.marks.isReported),
                    \(record.marks.reportedPaceSeconds), \(record.marks.isFromSharedPage))
                """)
            return id
        }
        let id = try await value(
            Int64.self,
            """
            INSERT INTO record (owner, course_id, title, source_format, content_hash, created_at, start_time,
                distance_m, point_count, device_timer_time_s, course_time_s, course_distance_m, match_coverage,
                stats, geometry, reported, reported_pace_s, public_course)
            VALUES (\(record.owner), \(record.courseID), \(record.title), \(record.sourceFormat),
                \(record.contentHash), \(Self.milliseconds(record.createdAt)), \(record.startTime.map(Self.milliseconds)),
                \(record.distanceMeters), \(record.pointCount), \(record.deviceTimerSeconds),
                \(record.courseTimeSeconds), \(record.courseDistanceMeters), \(record.matchCoverage),
                \(record.statsJSON)::json, \(record.geometry), \(record.marks.isReported),
                \(record.marks.reportedPaceSeconds), \(record.marks.isFromSharedPage))
            ON CONFLICT (owner, content_hash) DO NOTHING RETURNING id
            """)
        guard let id else {
            // Recorded by a transaction that committed meanwhile (its insert made this one wait).
            let existing = try await value(
                Int64.self,
                "SELECT id FROM record WHERE owner = \(record.owner) AND content_hash = \(record.contentHash)")
            guard let existing else { throw StoreError.database("the record was not stored") }
            throw StoreError.duplicateRecord(existingID: existing)
        }
        return id
    }

    func recordsAtLeastAsFast(course: Int64, seconds: Double, excluding id: Int64) async throws -> Int {
        try await value(
            Int.self,
            """
            SELECT count(*) FROM record WHERE owner = \(user) AND course_id = \(course) AND id <> \(id)
                AND course_time_s <= \(seconds)
            """) ?? 0
    }

    /// Every column of a record but its geometry, with its course's title and whether the course
    /// was deleted: what ``runRecord(_:)`` decodes. A course made private since keeps its records,
    /// whose owner may no longer read it: its title is then `NULL` (row-level security), as for a
    /// deleted course, whose kept figures (`deleted_course`) the record's owner may read. `$1` is
    /// the user.
    static let recordSelect = """
        SELECT r.id, r.owner, r.title, r.course_id, c.title, r.source_format, r.content_hash,
               r.stats::text, r.device_timer_time_s, r.course_time_s, r.course_distance_m, r.match_coverage,
               r.created_at, EXISTS (SELECT 1 FROM deleted_course d WHERE d.id = r.course_id)
        FROM record r LEFT JOIN course c ON c.id = r.course_id
        WHERE r.owner = $1
        """

    static func runRecord(_ row: PostgresRow) throws -> RunRecord {
        let r = row.makeRandomAccess()
        let id = try r[0].decode(Int64.self)
        let stats: StoredStats
        do {
            stats = try StoredStats.decode(Data(try r[7].decode(String.self).utf8))
        } catch {
            throw StoreError.database("record \(id) has unreadable stats: \(error)")
        }
        return RunRecord(
            id: id, owner: try r[1].decode(String.self), title: try r[2].decode(String.self),
            courseID: try r[3].decode(Int64.self), courseTitle: try r[4].decode(String?.self),
            isCourseDeleted: try r[13].decode(Bool.self),
            sourceFormat: try r[5].decode(String.self), contentHash: try r[6].decode(String.self),
            stats: stats.stats, deviceTimerSeconds: try r[8].decode(Double?.self),
            courseTimeSeconds: try r[9].decode(Double.self), courseDistanceMeters: try r[10].decode(Double.self),
            matchCoverage: try r[11].decode(Double.self), createdAt: try r[12].decode(Date.self))
    }

    func record(id: Int64) async throws -> RunRecord? {
        let sql = "\(Self.recordSelect) AND r.id = $2"
        return try await query(PostgresQuery(unsafeSQL: sql, binds: try binds(user, id))).rows.first.map(Self.runRecord)
    }

    func recordGeometry(id: Int64) async throws -> Data? {
        try await value(Data.self, "SELECT geometry FROM record WHERE id = \(id) AND owner = \(user)")
    }

    /// SQLite sorts a missing start time last in a descending order; PostgreSQL, first unless told.
    func records(course: Int64?, sort: RecordSort, limit: Int, offset: Int) async throws -> [RunRecord] {
        let order = sort == .time ? "r.course_time_s, r.id" : "r.start_time DESC NULLS LAST, r.id DESC"
        let sql: String
        let bindings: PostgresBindings
        if let course {
            sql = "\(Self.recordSelect) AND r.course_id = $2 ORDER BY \(order) LIMIT $3 OFFSET $4"
            bindings = try binds(user, course, limit, offset)
        } else {
            sql = "\(Self.recordSelect) ORDER BY \(order) LIMIT $2 OFFSET $3"
            bindings = try binds(user, limit, offset)
        }
        return try await query(PostgresQuery(unsafeSQL: sql, binds: bindings)).rows.map(Self.runRecord)
    }

    func allRecords(course: Int64) async throws -> [RunRecord] {
        let sql = "\(Self.recordSelect) AND r.course_id = $2 ORDER BY r.id"
        return try await query(PostgresQuery(unsafeSQL: sql, binds: try binds(user, course))).rows.map(Self.runRecord)
    }

    func recordCount(course: Int64) async throws -> Int {
        try await value(Int.self, "SELECT record_count FROM course WHERE id = \(course)") ?? 0
    }

    func bestCourseTime(course: Int64) async throws -> Double? {
        try await value(
            Double?.self, "SELECT min(course_time_s) FROM record WHERE course_id = \(course) AND owner = \(user)")
            ?? nil
    }

    func setRecordTitle(id: Int64, title: String) async throws {
        try await query("UPDATE record SET title = \(title) WHERE id = \(id) AND owner = \(user)")
    }

    func deleteRecords(ids: [Int64]) async throws {
        guard !ids.isEmpty else { return }
        try await query("DELETE FROM record WHERE id = ANY(\(ids)) AND owner = \(user)")
    }
}
