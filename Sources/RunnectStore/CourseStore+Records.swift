import Foundation
import GRDB
import RunnectKit

extension CourseStore {
    // MARK: - Reading records

    /// One of the current user's records.
    /// - Throws: ``StoreError/recordNotFound(_:)`` (also for someone else's record: records are
    ///   private).
    public func record(id: Int64) throws -> RunRecord {
        try read { try fetchRecord($0, id: id) }
    }

    /// The whole run of one of the current user's records, as imported.
    /// - Throws: ``StoreError/recordNotFound(_:)``, ``StoreError/corruptRecord(id:reason:)``.
    public func recordActivity(id: Int64) throws -> Activity {
        let blob = try read { db in
            try Data.fetchOne(
                db, sql: "SELECT geometry FROM record WHERE id = ? AND owner = ?", arguments: [id, user])
        }
        guard let blob else { throw StoreError.recordNotFound(id) }
        do {
            return try ActivityCodec.decode(blob)
        } catch let error as ActivityCodecError {
            throw StoreError.corruptRecord(id: id, reason: error.description)
        }
    }

    /// A page of the current user's records: all of them newest first, or those of one course
    /// (fastest first with ``RecordSort/time``).
    /// - Throws: ``StoreError/invalidPage(limit:number:)``, ``StoreError/notFound(_:)`` for a course
    ///   the user cannot see.
    public func records(course: Int64? = nil, sort: RecordSort = .date, page: Page = Page()) throws -> [RunRecord] {
        let offset = try page.offset()
        return try read { db in
            var filter: SQL = "record.owner = \(user)"
            if let course {
                _ = try visibleCourse(db, id: course)
                filter = "\(filter) AND record.course_id = \(course)"
            }
            let order: SQL =
                sort == .time
                ? "record.course_time_s ASC, record.id ASC" : "record.start_time DESC, record.id DESC"
            let request: SQL =
                "\(sql: RecordRow.listedSQL) WHERE \(filter) ORDER BY \(order) LIMIT \(page.limit) OFFSET \(offset)"
            let (sql, arguments) = try request.build(db)
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map(RecordRow.record)
        }
    }

    /// The user's attempts at a course: count, newest, personal bests, trend.
    /// - Throws: ``StoreError/notFound(_:)`` for a course the user cannot see.
    public func recordSummary(course: Int64) throws -> CourseRecordSummary {
        try read { db in
            _ = try visibleCourse(db, id: course)
            let all = try Row.fetchAll(
                db, sql: RecordRow.listedSQL + " WHERE record.owner = ? AND record.course_id = ? ORDER BY record.id",
                arguments: [user, course]
            ).map(RecordRow.record)
            func started(_ record: RunRecord) -> Date { record.stats.startTime ?? record.createdAt }
            let byDate = all.sorted { (started($0), $0.id) < (started($1), $1.id) }
            let fastest = { (records: [RunRecord]) in
                records.min { ($0.courseTimeSeconds, $0.id) < ($1.courseTimeSeconds, $1.id) }
            }
            let newest = byDate.last
            let yearAgo = Date().addingTimeInterval(-365 * 86_400)
            return CourseRecordSummary(
                courseID: course, attempts: all.count, mostRecent: newest, personalBest: fastest(all),
                bestOfLastYear: fastest(byDate.filter { started($0) >= yearAgo }),
                recentCourseTimes: byDate.suffix(CourseRecordSummary.trendAttempts).map(\.courseTimeSeconds))
        }
    }

    /// How many records the course has (every runner's) and the user's best course time on it.
    /// - Throws: ``StoreError/notFound(_:)``.
    public func recordFigures(course: Int64) throws -> (count: Int, bestCourseTimeSeconds: Double?) {
        try read { db in
            let course = try fetchCourse(db, id: course)
            let best = try Double.fetchOne(
                db, sql: "SELECT min(course_time_s) FROM record WHERE course_id = ? AND owner = ?",
                arguments: [course.id, user])
            let count = try Int.fetchOne(
                db, sql: "SELECT record_count FROM course WHERE id = ?", arguments: [course.id])
            return (count ?? 0, best)
        }
    }

    // MARK: - Changing records

    /// Gives one of the current user's records a new title (1–40 characters after trimming).
    /// - Throws: ``StoreError/recordNotFound(_:)``, ``StoreError/invalidTitle(_:)``.
    public func renameRecord(id: Int64, title: String) throws -> RunRecord {
        try write { db in
            _ = try fetchRecord(db, id: id)
            let title = try Self.validTitle(title)
            try db.execute(sql: "UPDATE record SET title = ? WHERE id = ?", arguments: [title, id])
            return try fetchRecord(db, id: id)
        }
    }

    /// Deletes records of the current user; all or nothing.
    /// - Throws: ``StoreError/recordNotFound(_:)`` for the first id that is not one of theirs.
    public func deleteRecords(ids: [Int64]) throws {
        try write { db in
            for id in ids { _ = try fetchRecord(db, id: id) }
            try RecordRow.deleteAll(db, keys: ids)
        }
    }

    // MARK: - Inside transactions

    /// Record `id` of the current user.
    func fetchRecord(_ db: Database, id: Int64) throws -> RunRecord {
        guard
            let row = try Row.fetchOne(
                db, sql: RecordRow.listedSQL + " WHERE record.id = ? AND record.owner = ?", arguments: [id, user])
        else { throw StoreError.recordNotFound(id) }
        return try RecordRow.record(row)
    }

    /// Course `id`, if the user can see it: their own, a shared one, or one they scrapped.
    func visibleCourse(_ db: Database, id: Int64) throws -> Course {
        let course = try fetchCourse(db, id: id)
        guard course.owner == user || course.isUploaded || course.isScrapped else { throw StoreError.notFound(id) }
        return course
    }
}
