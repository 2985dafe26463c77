import Foundation
import GRDB
import RunnectKit

/// The primitives of ``StoreTransaction`` in SQLite's SQL, on one GRDB connection inside a
/// transaction.
///
/// `@unchecked Sendable`: it is used only on the queue of its connection, by the one task that
/// ``ThreadBoundExecutor`` keeps there.
struct SQLiteTransaction: StoreTransaction, @unchecked Sendable {
    let db: Database
    let user: String
    let hooks: StoreHooks
    let unreadable = UnreadableRows()

    // MARK: - Reading courses

    func course(id: Int64) throws -> Course? {
        try CourseRow.request(CourseTableRow.filter(key: id).readable(by: user), user: user).fetchOne(db)?.course
    }

    /// Lists pick a page of ids first and read the rows after: the sort (when no index gives the
    /// order) then handles narrow rows, and the stats JSON and `is_scrapped` are only read for
    /// the courses shown.
    func courses(ids: [Int64]) throws -> [Course] {
        guard !ids.isEmpty else { return [] }
        let rows = try readableRows(CourseTableRow.filter(keys: ids).readableByKey(by: user))
        let byID = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }

    func courseGeometry(id: Int64) throws -> Data? {
        try Data.fetchOne(
            db.cachedStatement(sql: "SELECT geometry FROM course WHERE id = ? AND (owner = ? OR is_uploaded)"),
            arguments: [id, user])
    }

    func courseIDs(_ scope: CourseListScope, sort: CourseSort, limit: Int, offset: Int) throws -> [Int64] {
        try Self.listRequest(scope, sort: sort, user: user).limit(limit, offset: offset)
            .select(CourseTableRow.Columns.id, as: Int64.self).fetchAll(db)
    }

    /// The courses of `scope` in the order of `sort`, without paging.
    static func listRequest(
        _ scope: CourseListScope, sort: CourseSort, user: String
    ) -> QueryInterfaceRequest<CourseTableRow> {
        var request = CourseTableRow.all()
        switch scope {
        case .mine(let uploaded):
            request = request.owned(by: user)
            if let uploaded { request = request.uploaded(uploaded) }
        case .scrapped:
            request = request.scrapped(by: user)
        case .shared:
            request = request.uploaded()
        case .sharedBy(let owner):
            request = request.owned(by: owner).uploaded()
        }
        return request.sorted(by: sort)
    }

    func courses(in scope: SearchScope, sort: CourseSort) throws -> [Course] {
        let all = CourseTableRow.all()
        let request = (scope == .shared ? all.uploaded() : all.readable(by: user)).sorted(by: sort)
        return try readableRows(request)
    }

    /// The courses of `request` whose rows decode; the others noted in ``unreadable``.
    private func readableRows(_ request: QueryInterfaceRequest<CourseTableRow>) throws -> [Course] {
        // Each row decoded where the cursor holds it, as `fetchAll` of `CourseRow` did: no copy.
        let rows = try Row.fetchCursor(db, request.select(CourseRow.selection(user: user)))
        var courses: [Course] = []
        while let row = try rows.next() {
            do {
                courses.append(try CourseRow(row: row).course)
            } catch {
                unreadable.skip(course: row[0], error)
            }
        }
        return courses
    }

    func searchIDs(_ request: SearchRequest) throws -> [Int64] {
        try SQLiteSearchIndex.search(db, request, reader: user)
    }

    func counts() throws -> StoreCounts {
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT (SELECT COUNT(*) FROM course), (SELECT COUNT(*) FROM course WHERE is_uploaded),
                       (SELECT COUNT(DISTINCT owner) FROM course), (SELECT COUNT(*) FROM scrap)
                """)!
        return StoreCounts(
            schemaVersion: try SQLiteBackend.userVersion(db), courses: row[0], sharedCourses: row[1], owners: row[2],
            scraps: row[3])
    }

    // MARK: - Changing courses

    func insertCourse(_ draft: CourseDraft) throws -> Course {
        var record = draft.record
        if !draft.isPreset {
            record.owner = user
            record.createdAt = Date()
        }
        let insert = try db.cachedStatement(sql: CourseTableRow.insertSQL)
        do {
            try insert.execute(arguments: record.insertArguments(statsJSON: draft.statsJSON))
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            typealias C = CourseTableRow.Columns
            let existing = try CourseTableRow.all().owned(by: record.owner).filter(C.contentHash == record.contentHash)
                .select(C.id, as: Int64.self).fetchOne(db)
            guard let existing else { throw error }
            throw StoreError.duplicate(existingID: existing)
        }
        let id = db.lastInsertedRowID
        // Dates as stored (to the millisecond), so that the course equals a later read of it.
        let dates = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT created_at, uploaded_at FROM course WHERE id = ?"), arguments: [id])
        let course = Course(
            id: id, owner: record.owner, title: record.title, description: record.description,
            departure: draft.departure, sourceFormat: record.sourceFormat, contentHash: record.contentHash,
            stats: record.stats.stats, createdAt: dates?[0] ?? record.createdAt, isUploaded: record.isUploaded,
            uploadedAt: dates?[1], scrapCount: record.scrapCount, isScrapped: false)
        try SQLiteSearchIndex.index(db, courseID: id, entry: draft.searchEntry)
        try draft.bounds?.insert(db, courseID: id)
        try draft.pieces?.insert(db, courseID: id)
        try hooks.beforeImportCommit?(db, id)
        return course
    }

    func setTitle(id: Int64, title: String) throws {
        try CourseTableRow.filter(key: id).updateAll(db, CourseTableRow.Columns.title.set(to: title))
        try reindex(id: id)
    }

    func share(id: Int64, title: String, description: String, at date: Date) throws {
        typealias C = CourseTableRow.Columns
        try CourseTableRow.filter(key: id).updateAll(
            db, C.isUploaded.set(to: true), C.uploadedAt.set(to: date), C.title.set(to: title),
            C.description.set(to: description))
        try reindex(id: id)
    }

    /// Refreshes the search entry of a course whose text changed.
    private func reindex(id: Int64) throws {
        guard let course = try course(id: id) else { return }
        try SQLiteSearchIndex.index(db, courseID: id, fields: course.searchFields)
    }

    func unshare(id: Int64) throws {
        try ScrapRow.filter(ScrapRow.Columns.courseID == id).deleteAll(db)
        typealias C = CourseTableRow.Columns
        try CourseTableRow.filter(key: id).updateAll(db, C.isUploaded.set(to: false), C.uploadedAt.set(to: nil))
    }

    func recordCounts(course id: Int64) throws -> (own: Int, others: Int) {
        typealias R = RecordRow.Columns
        let others = try RecordRow.filter(R.courseID == id && R.owner != user).fetchCount(db)
        let own = try RecordRow.filter(R.courseID == id && R.owner == user).fetchCount(db)
        return (own, others)
    }

    func deleteCourses(ids: [Int64]) throws {
        // The user's own records; others' stay, their course kept by trigger (schema version 5).
        try RecordRow.filter(ids.contains(RecordRow.Columns.courseID) && RecordRow.Columns.owner == user).deleteAll(db)
        for id in ids { try SQLiteSearchIndex.remove(db, courseID: id) }
        try CourseTableRow.deleteAll(db, keys: ids)
    }

    func addScrap(course id: Int64, at date: Date) throws {
        try ScrapRow(courseID: id, user: user, createdAt: date).insert(db)
    }

    func removeScrap(course id: Int64) throws {
        try ScrapRow.filter(key: [ScrapRow.Columns.courseID.name: id, ScrapRow.Columns.user.name: user])
            .deleteAll(db)
    }

    // MARK: - Savepoints

    /// Savepoints through cached statements (GRDB's savepoint API compiles its SQL each time, a
    /// noticeable cost per course). `name` is the store's own, never user text.
    func beginSavepoint(_ name: String) throws {
        try db.cachedStatement(sql: "SAVEPOINT \(name)").execute()
    }

    func releaseSavepoint(_ name: String) throws {
        try db.cachedStatement(sql: "RELEASE \(name)").execute()
    }

    func rollbackSavepoint(_ name: String) throws {
        try db.cachedStatement(sql: "ROLLBACK TO \(name)").execute()
        try releaseSavepoint(name)
    }

    func storeError(_ error: any Error) -> StoreError? {
        (error as? DatabaseError).map(StoreError.init)
    }
}
