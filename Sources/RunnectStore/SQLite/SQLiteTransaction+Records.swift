import Foundation
import GRDB
import RunnectKit

extension SQLiteTransaction {
    // MARK: - Records

    func recordID(contentHash: String) throws -> Int64? {
        typealias R = RecordRow.Columns
        return try RecordRow.filter(R.owner == user && R.contentHash == contentHash)
            .select(R.id, as: Int64.self).fetchOne(db)
    }

    /// The `course_start` R*Tree (see `SQLiteBackend.migrator`, version 3): starts in each of
    /// `pieces`, one query a piece, finishes (kept beside, exact) in `finishBox`.
    func courseStarts(in pieces: [Bounds], finishingIn finishBox: Bounds) throws -> [CourseStart] {
        try pieces.flatMap { try courseStarts(in: $0, finishingIn: finishBox) }
    }

    private func courseStarts(in piece: Bounds, finishingIn finishBox: Bounds) throws -> [CourseStart] {
        let starts = try db.cachedStatement(
            sql: """
                SELECT id, start_lat, start_lon, finish_lat, finish_lon, path_m FROM course_start
                WHERE max_lat >= :south AND min_lat <= :north AND max_lon >= :west AND min_lon <= :east
                  AND finish_lat BETWEEN :finishSouth AND :finishNorth
                  AND finish_lon BETWEEN :finishWest AND :finishEast
                """)
        return try Row.fetchAll(
            starts,
            arguments: [
                "south": piece.minLatitude, "north": piece.maxLatitude, "west": piece.minLongitude,
                "east": piece.maxLongitude, "finishSouth": finishBox.minLatitude, "finishNorth": finishBox.maxLatitude,
                "finishWest": finishBox.minLongitude, "finishEast": finishBox.maxLongitude,
            ]
        ).map { row in
            CourseStart(
                id: row[0], start: Coordinate(latitude: row[1], longitude: row[2]),
                finish: Coordinate(latitude: row[3], longitude: row[4]), pathMeters: row[5])
        }
    }

    func canSee(course id: Int64) throws -> Bool {
        let visible = try db.cachedStatement(
            sql: """
                SELECT 1 FROM course c WHERE c.id = :id AND (c.owner = :user OR c.is_uploaded
                    OR EXISTS (SELECT 1 FROM scrap x WHERE x.course_id = c.id AND x.user = :user))
                """)
        return try Bool.fetchOne(visible, arguments: ["id": id, "user": user]) == true
    }

    func insertRecord(_ record: NewRecord) throws -> Int64 {
        do {
            try db.cachedStatement(
                sql: """
                    INSERT INTO record (id, owner, course_id, title, source_format, content_hash, created_at,
                        start_time, distance_m, point_count, device_timer_time_s, course_time_s, course_distance_m,
                        match_coverage, stats, geometry, reported, reported_pace_s, public_course)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                record.id, record.owner, record.courseID, record.title, record.sourceFormat, record.contentHash,
                record.createdAt, record.startTime, record.distanceMeters, record.pointCount,
                record.deviceTimerSeconds, record.courseTimeSeconds, record.courseDistanceMeters, record.matchCoverage,
                record.statsJSON, record.geometry, record.marks.isReported, record.marks.reportedPaceSeconds,
                record.marks.isFromSharedPage,
            ])
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            typealias R = RecordRow.Columns
            let existing = try RecordRow.filter(R.owner == record.owner && R.contentHash == record.contentHash)
                .select(R.id, as: Int64.self).fetchOne(db)
            guard let existing else { throw error }
            throw StoreError.duplicateRecord(existingID: existing)
        }
        return db.lastInsertedRowID
    }

    func recordsAtLeastAsFast(course: Int64, seconds: Double, excluding id: Int64) throws -> Int {
        typealias R = RecordRow.Columns
        return try RecordRow.filter(
            R.owner == user && R.courseID == course && R.id != id && R.courseTimeSeconds <= seconds
        ).fetchCount(db)
    }

    func record(id: Int64) throws -> RunRecord? {
        try Row.fetchOne(
            db, sql: RecordRow.listedSQL + " WHERE record.id = ? AND record.owner = ?", arguments: [id, user]
        ).map(RecordRow.record)
    }

    func recordGeometry(id: Int64) throws -> Data? {
        try Data.fetchOne(db, sql: "SELECT geometry FROM record WHERE id = ? AND owner = ?", arguments: [id, user])
    }

    func records(course: Int64?, sort: RecordSort, limit: Int, offset: Int) throws -> [RunRecord] {
        var filter: SQL = "record.owner = \(user)"
        if let course { filter = "\(filter) AND record.course_id = \(course)" }
        let order: SQL =
            sort == .time ? "record.course_time_s ASC, record.id ASC" : "record.start_time DESC, record.id DESC"
        let request: SQL =
            "\(sql: RecordRow.listedSQL) WHERE \(filter) ORDER BY \(order) LIMIT \(limit) OFFSET \(offset)"
        let (sql, arguments) = try request.build(db)
        return try Row.fetchAll(db, sql: sql, arguments: arguments).map(RecordRow.record)
    }

    func allRecords(course: Int64) throws -> [RunRecord] {
        try Row.fetchAll(
            db, sql: RecordRow.listedSQL + " WHERE record.owner = ? AND record.course_id = ? ORDER BY record.id",
            arguments: [user, course]
        ).map(RecordRow.record)
    }

    func recordCount(course: Int64) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT record_count FROM course WHERE id = ?", arguments: [course]) ?? 0
    }

    func bestCourseTime(course: Int64) throws -> Double? {
        try Double.fetchOne(
            db, sql: "SELECT min(course_time_s) FROM record WHERE course_id = ? AND owner = ?",
            arguments: [course, user])
    }

    func setRecordTitle(id: Int64, title: String) throws {
        try db.execute(sql: "UPDATE record SET title = ? WHERE id = ? AND owner = ?", arguments: [title, id, user])
    }

    func deleteRecords(ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        try RecordRow.filter(keys: ids).filter(RecordRow.Columns.owner == user).deleteAll(db)
    }
}
