import Foundation
import GRDB
import RunnectKit

extension SQLiteTransaction {
    // MARK: - Copying a store

    func storedCourses(after id: Int64, limit: Int) throws -> [StoredCourse] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT id, owner, title, description, departure_region, departure_city, departure_town,
                           departure_detail, departure_name, source_format, content_hash, created_at, is_uploaded,
                           uploaded_at, stats, geometry
                    FROM course WHERE id > ? ORDER BY id LIMIT ?
                    """),
            arguments: [id, limit]
        ).map { row in
            return StoredCourse(
                id: row[0], owner: row[1], title: row[2], description: row[3],
                departure: CourseRow.departure(in: row, from: 4),
                sourceFormat: row[9], contentHash: row[10], createdAt: row[11], isUploaded: row[12],
                uploadedAt: row[13], statsJSON: row[14], geometry: row[15])
        }
    }

    func storedRecords(after id: Int64, limit: Int) throws -> [NewRecord] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT id, owner, course_id, title, source_format, content_hash, created_at, start_time,
                           distance_m, point_count, device_timer_time_s, course_time_s, course_distance_m,
                           match_coverage, stats, geometry, reported, reported_pace_s, public_course
                    FROM record WHERE id > ? ORDER BY id LIMIT ?
                    """),
            arguments: [id, limit]
        ).map { row in
            var record = NewRecord(
                id: row[0], owner: row[1], courseID: row[2], title: row[3], sourceFormat: row[4], contentHash: row[5],
                createdAt: row[6], startTime: row[7], distanceMeters: row[8], pointCount: row[9],
                deviceTimerSeconds: row[10], courseTimeSeconds: row[11], courseDistanceMeters: row[12],
                matchCoverage: row[13], statsJSON: row[14], geometry: row[15])
            record.marks = RecordMarks(isReported: row[16], reportedPaceSeconds: row[17], isFromSharedPage: row[18])
            return record
        }
    }

    func storedScraps() throws -> [StoredScrap] {
        try ScrapRow.order(ScrapRow.Columns.courseID, ScrapRow.Columns.user).fetchAll(db).map {
            StoredScrap(courseID: $0.courseID, user: $0.user, createdAt: $0.createdAt)
        }
    }

    func storedUsers() throws -> [String] {
        try String.fetchAll(
            db, sql: #"SELECT owner FROM course UNION SELECT owner FROM record UNION SELECT "user" FROM scrap"#)
    }

    func courseIdentities(ids: [Int64]) throws -> [Int64: StoredIdentity] {
        let statement = try db.cachedStatement(sql: "SELECT owner, content_hash FROM course WHERE id = ?")
        var found: [Int64: StoredIdentity] = [:]
        for id in ids {
            if let row = try Row.fetchOne(statement, arguments: [id]) {
                found[id] = StoredIdentity(owner: row[0], contentHash: row[1])
            }
        }
        return found
    }

    func recordIdentity(id: Int64) throws -> StoredIdentity? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT owner, content_hash FROM record WHERE id = ?"), arguments: [id]
        ).map { StoredIdentity(owner: $0[0], contentHash: $0[1]) }
    }

    func insertScrap(_ scrap: StoredScrap) throws -> Bool {
        try db.cachedStatement(sql: #"INSERT OR IGNORE INTO scrap (course_id, "user", created_at) VALUES (?, ?, ?)"#)
            .execute(arguments: [scrap.courseID, scrap.user, scrap.createdAt])
        return db.changesCount > 0
    }

    func storedDeletedCourses() throws -> [StoredDeletedCourse] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT id, owner, distance_m, departure_region, departure_city, departure_town, departure_detail,
                       departure_name, geometry, deleted_at
                FROM deleted_course ORDER BY id
                """
        ).map { row in
            StoredDeletedCourse(
                id: row[0], owner: row[1], distanceMeters: row[2], departure: CourseRow.departure(in: row, from: 3),
                geometry: row[8], deletedAt: row[9])
        }
    }

    func insertDeletedCourses(_ courses: [StoredDeletedCourse]) throws -> Int {
        var added = 0
        for course in courses {
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM course WHERE id = ?", arguments: [course.id]) == true {
                throw StoreError.copyConflict(
                    kind: "deleted course", id: course.id, reason: "the destination holds a course under that id")
            }
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO deleted_course (id, owner, distance_m, departure_region, departure_city,
                        departure_town, departure_detail, departure_name, geometry, deleted_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    course.id, course.owner, course.distanceMeters, course.departure?.region, course.departure?.city,
                    course.departure?.town, course.departure?.detail, course.departure?.name, course.geometry,
                    course.deletedAt,
                ])
            added += db.changesCount
        }
        if let last = courses.map(\.id).max() {
            try db.execute(sql: "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'course'", arguments: [last])
            try db.execute(
                sql: "INSERT INTO sqlite_sequence (name, seq) SELECT 'course', ? WHERE NOT EXISTS "
                    + "(SELECT 1 FROM sqlite_sequence WHERE name = 'course')",
                arguments: [last])
        }
        return added
    }

    /// SQLite's `AUTOINCREMENT` keeps the highest id ever inserted, given or not: nothing to do.
    func identitiesCopied() throws {}
}
