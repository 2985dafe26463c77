import Foundation
import GRDB
import RunnectKit

extension CourseStore {
    // MARK: - Reading

    /// The course with this id, as the current user sees it (``Course/isScrapped``).
    /// - Throws: ``StoreError/notFound(_:)``.
    public func course(id: Int64) throws -> Course {
        try read { try fetchCourse($0, id: id) }
    }

    /// The full geometry of a course exactly as it was imported: metadata, every track, segment,
    /// route and waypoint, every point with its time, elevation, heart rate, cadence and
    /// temperature. What exports are made from.
    /// - Throws: ``StoreError/notFound(_:)``, ``StoreError/corruptGeometry(id:reason:)``.
    public func activity(id: Int64) throws -> Activity {
        try read { try storedActivity($0, id: id) }
    }

    /// The stored activity of course `id`, inside a transaction.
    func storedActivity(_ db: Database, id: Int64) throws -> Activity {
        try Self.decodeGeometry(
            CourseRecord.select(CourseRecord.Columns.geometry, as: Data.self).filter(key: id).fetchOne(db), id: id)
    }

    /// The courses of `scope`, and then their activities one at a time, read from one snapshot
    /// of the database: what `body` sees agrees with itself even while other connections write.
    ///
    /// - Parameters:
    ///   - scope: Shared courses, or every course of the store.
    ///   - sort: The order of `courses`.
    ///   - body: Called once with the courses (as the current user sees them) and a function that
    ///     reads and decodes a course's activity (see ``activity(id:)``) from the same snapshot.
    ///     Neither outlives the call.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws; ``StoreError/notFound(_:)`` and
    ///   ``StoreError/corruptGeometry(id:reason:)`` from `activity`; ``StoreError/database(_:)``.
    /// - Complexity: The courses are read at once, without their paths; each activity is read when
    ///   asked for, so memory holds a path only as long as `body` keeps it.
    public func readCourses<T>(
        in scope: SearchScope, sort: CourseSort = .date,
        _ body: (_ courses: [Course], _ activity: (_ id: Int64) throws -> Activity) throws -> T
    ) throws -> T {
        let all = CourseRecord.all()
        let request = (scope == .shared ? all.uploaded() : all).sorted(by: sort)
        return try read { db in
            let courses = try CourseRow.request(request, user: user).fetchAll(db).map(\.course)
            let geometry = try db.cachedStatement(sql: "SELECT geometry FROM course WHERE id = ?")
            return try body(courses) { id in
                try Self.decodeGeometry(try Data.fetchOne(geometry, arguments: [id]), id: id)
            }
        }
    }

    /// The activity in a course's `geometry` column.
    /// - Throws: ``StoreError/notFound(_:)`` for `nil`, ``StoreError/corruptGeometry(id:reason:)``.
    static func decodeGeometry(_ blob: Data?, id: Int64) throws -> Activity {
        guard let blob else { throw StoreError.notFound(id) }
        do {
            return try ActivityCodec.decode(blob)
        } catch let error as ActivityCodecError {
            throw StoreError.corruptGeometry(id: id, reason: error.description)
        }
    }

    /// One page of courses.
    ///
    /// - Parameters:
    ///   - scope: The current user's own courses, those they scrapped, or every shared course.
    ///   - sort: ``CourseSort/date`` (newest first), ``CourseSort/scrap`` (most scrapped first),
    ///     ``CourseSort/distance`` (shortest first); ties are broken by id, so pages are stable.
    ///     ``CourseSort/relevance`` lists by date.
    ///   - page: Which page, of how many courses.
    /// - Throws: ``StoreError/invalidPage(limit:number:)``.
    /// - Complexity: Shared lists in every order read an index (no sort step), so a page costs
    ///   about the same with 100,000 courses as with 100, apart from the offset skipped.
    public func list(_ scope: CourseListScope, sort: CourseSort = .date, page: Page = Page()) throws -> [Course] {
        let offset = try page.offset()
        let ids = listRequest(scope, sort: sort).limit(page.limit, offset: offset)
            .select(CourseRecord.Columns.id, as: Int64.self)
        return try read { db in try fetchCourses(db, ids: ids.fetchAll(db)) }
    }

    /// The courses of `scope` in the order of `sort`, without paging.
    func listRequest(_ scope: CourseListScope, sort: CourseSort) -> QueryInterfaceRequest<CourseRecord> {
        var request = CourseRecord.all()
        switch scope {
        case .mine(let uploaded):
            request = request.owned(by: user)
            if let uploaded { request = request.uploaded(uploaded) }
        case .scrapped:
            request = request.scrapped(by: user)
        case .shared:
            request = request.uploaded()
        }
        return request.sorted(by: sort)
    }

    /// The courses with these ids, in the order given (unknown ids are left out).
    ///
    /// Lists pick a page of ids first and read the rows after: the sort (when no index gives the
    /// order) then handles narrow rows, and the stats JSON and `is_scrapped` are only read for
    /// the courses shown.
    func fetchCourses(_ db: Database, ids: [Int64]) throws -> [Course] {
        guard !ids.isEmpty else { return [] }
        let rows = try CourseRow.request(CourseRecord.filter(keys: ids), user: user).fetchAll(db)
        let byID = Dictionary(rows.map { ($0.course.id, $0.course) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }

    /// The course `id` as the current user sees it, inside a transaction.
    func fetchCourse(_ db: Database, id: Int64) throws -> Course {
        guard let row = try CourseRow.request(CourseRecord.filter(key: id), user: user).fetchOne(db) else {
            throw StoreError.notFound(id)
        }
        return row.course
    }
}

extension CourseStore {
    /// Counts of what the store holds, and its schema version.
    /// - Throws: ``StoreError/database(_:)``.
    public func summary() throws -> StoreSummary {
        try read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT (SELECT COUNT(*) FROM course), (SELECT COUNT(*) FROM course WHERE is_uploaded),
                           (SELECT COUNT(DISTINCT owner) FROM course), (SELECT COUNT(*) FROM scrap)
                    """)!
            return StoreSummary(
                path: path, schemaVersion: try Self.userVersion(db),
                supportedSchemaVersion: Self.supportedSchemaVersion,
                courses: row[0], sharedCourses: row[1], owners: row[2], scraps: row[3])
        }
    }
}
