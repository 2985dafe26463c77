import Foundation
import RunnectKit

extension CourseStore {
    // MARK: - Reading records

    /// One of the current user's records.
    /// - Throws: ``StoreError/recordNotFound(_:)`` (also for someone else's record: records are
    ///   private).
    public func record(id: Int64) async throws -> RunRecord {
        try await read { try await self.fetchRecord($0, id: id) }
    }

    /// The whole run of one of the current user's records, as imported.
    /// - Throws: ``StoreError/recordNotFound(_:)``, ``StoreError/corruptRecord(id:reason:)``.
    public func recordActivity(id: Int64) async throws -> Activity {
        let blob = try await read { try await $0.recordGeometry(id: id) }
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
    public func records(course: Int64? = nil, sort: RecordSort = .date, page: Page = Page()) async throws -> [RunRecord]
    {
        let offset = try page.offset()
        return try await read { tx in
            if let course { _ = try await self.visibleCourse(tx, id: course) }
            return try await tx.records(course: course, sort: sort, limit: page.limit, offset: offset)
        }
    }

    /// The user's attempts at a course: count, newest, personal bests, trend.
    /// - Throws: ``StoreError/notFound(_:)`` for a course the user cannot see.
    public func recordSummary(course: Int64) async throws -> CourseRecordSummary {
        try await read { tx in
            _ = try await self.visibleCourse(tx, id: course)
            let all = try await tx.allRecords(course: course)
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
    public func recordFigures(course: Int64) async throws -> (count: Int, bestCourseTimeSeconds: Double?) {
        try await read { tx in
            let course = try await self.fetchCourse(tx, id: course)
            return (try await tx.recordCount(course: course.id), try await tx.bestCourseTime(course: course.id))
        }
    }

    // MARK: - Changing records

    /// Gives one of the current user's records a new title (1–40 characters after trimming).
    /// - Throws: ``StoreError/recordNotFound(_:)``, ``StoreError/invalidTitle(_:)``.
    public func renameRecord(id: Int64, title: String) async throws -> RunRecord {
        try await write { tx in
            _ = try await self.fetchRecord(tx, id: id)
            try await tx.setRecordTitle(id: id, title: try Self.validTitle(title))
            return try await self.fetchRecord(tx, id: id)
        }
    }

    /// Deletes records of the current user; all or nothing.
    /// - Throws: ``StoreError/recordNotFound(_:)`` for the first id that is not one of theirs.
    public func deleteRecords(ids: [Int64]) async throws {
        try await write { tx in
            for id in ids { _ = try await self.fetchRecord(tx, id: id) }
            try await tx.deleteRecords(ids: ids)
        }
    }

    // MARK: - Inside transactions

    /// Record `id` of the current user.
    func fetchRecord(_ tx: any StoreTransaction, id: Int64) async throws -> RunRecord {
        guard let record = try await tx.record(id: id) else { throw StoreError.recordNotFound(id) }
        return record
    }

    /// Course `id`, if the user can see it: their own, a shared one, or one they scrapped.
    func visibleCourse(_ tx: any StoreTransaction, id: Int64) async throws -> Course {
        let course = try await fetchCourse(tx, id: id)
        guard course.owner == user || course.isUploaded || course.isScrapped else { throw StoreError.notFound(id) }
        return course
    }
}
