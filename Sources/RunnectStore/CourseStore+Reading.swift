import Foundation
import RunnectKit

extension CourseStore {
    // MARK: - Reading

    /// The course with this id, as the current user sees it (``Course/isScrapped``).
    /// - Throws: ``StoreError/notFound(_:)``.
    public func course(id: Int64) async throws -> Course {
        try await read { try await self.fetchCourse($0, id: id) }
    }

    /// The full geometry of a course exactly as it was imported: metadata, every track, segment,
    /// route and waypoint, every point with its time, elevation, heart rate, cadence and
    /// temperature. What exports are made from.
    /// - Throws: ``StoreError/notFound(_:)``, ``StoreError/corruptGeometry(id:reason:)`` also for a
    ///   path that disagrees with the course's stored figures (a point that is no position, a point
    ///   count or a length not the course's).
    public func activity(id: Int64) async throws -> Activity {
        try await read { tx in
            try await Self.checkedActivity(tx.courseGeometry(id: id), course: self.fetchCourse(tx, id: id))
        }
    }

    /// The course `id` with its activity (as ``activity(id:)`` checks it) and its map image's name
    /// when it has one, read in one transaction: a server's course page in one visit to the store.
    /// - Throws: As ``activity(id:)``.
    public func courseWithActivity(id: Int64) async throws -> (course: Course, activity: Activity, image: String?) {
        try await read { tx in
            let course = try await self.fetchCourse(tx, id: id)
            let activity = try await Self.checkedActivity(tx.courseGeometry(id: id), course: course)
            return (course, activity, try await tx.courseImages(ids: [id])[id])
        }
    }

    /// The stored activity of course `id`, inside a transaction.
    func storedActivity(_ tx: any StoreTransaction, id: Int64) async throws -> Activity {
        try await Self.decodeGeometry(tx.courseGeometry(id: id), id: id)
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
    public func readCourses<T: Sendable>(
        in scope: SearchScope, sort: CourseSort = .date,
        _ body: (_ courses: [Course], _ activity: (_ id: Int64) async throws -> Activity) async throws -> T
    ) async throws -> T {
        // The body runs while this call awaits it, never beside the caller.
        try await withoutActuallyEscaping(body) { body in
            let body = UncheckedSendable(body)
            return try await read { tx in
                let courses = try await tx.courses(in: scope, sort: sort)
                let byID = Dictionary(courses.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                return try await body.value(courses) { id in
                    guard let course = byID[id] else {
                        return try await Self.decodeGeometry(tx.courseGeometry(id: id), id: id)
                    }
                    return try await Self.checkedActivity(tx.courseGeometry(id: id), course: course)
                }
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

    /// The activity of `course`, decoded and held to the figures stored with it: a point no reader
    /// writes (infinite, or out of range), a point count or a length that is not the course's is
    /// damage, told as such, never exported as a shorter path.
    /// - Throws: ``StoreError/notFound(_:)`` for `nil`, ``StoreError/corruptGeometry(id:reason:)``.
    static func checkedActivity(_ blob: Data?, course: Course) throws -> Activity {
        let activity = try decodeGeometry(blob, id: course.id)
        func damaged(_ reason: String) -> StoreError { .corruptGeometry(id: course.id, reason: reason) }
        if let (index, point) = activity.firstMalformedPoint() {
            throw damaged("point \(index + 1) lies at \(point.latitude), \(point.longitude), which is no position")
        }
        let count = activity.courseSegments.reduce(0) { $0 + $1.count }
        guard count == course.stats.points else {
            throw damaged("\(count) points where the course has \(course.stats.points)")
        }
        let length = activity.courseDistanceMeters()
        let stored = course.stats.distanceMeters
        // The stored figure is at millimetre resolution; a dropped or moved point changes metres.
        guard abs(length - stored) <= 0.5 + 1e-9 * stored else {
            throw damaged(
                "its points measure \(RunnerFormat.kilometers(meters: length)) where the course measures "
                    + RunnerFormat.kilometers(meters: stored))
        }
        return activity
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
    public func list(_ scope: CourseListScope, sort: CourseSort = .date, page: Page = Page()) async throws -> [Course] {
        let offset = try page.offset()
        return try await read { tx in
            try await tx.courses(ids: tx.courseIDs(scope, sort: sort, limit: page.limit, offset: offset))
        }
    }

    /// The ids of every shared course in the order of `sort`, read from the index alone: what a
    /// server pages its feed by, so that a deep page is an array slice and not an offset walked.
    /// - Complexity: One walk of the index: about 15 ms for 100,000 shared courses on SQLite.
    public func sharedCourseIDs(sort: CourseSort) async throws -> [Int64] {
        try await read { tx in try await tx.courseIDs(.shared, sort: sort, limit: Int(Int32.max), offset: 0) }
    }

    /// The courses with these ids that the current user may read, in the order given, with the map
    /// images of those that have one, read in one transaction: a server's page in one visit to
    /// the store.
    public func coursesWithImages(ids: [Int64]) async throws -> (courses: [Course], images: [Int64: String]) {
        try await read { tx in
            let courses = try await tx.courses(ids: ids)
            return (courses, try await tx.courseImages(ids: courses.map(\.id)))
        }
    }

    /// The course `id` as the current user sees it, inside a transaction.
    func fetchCourse(_ tx: any StoreTransaction, id: Int64) async throws -> Course {
        guard let course = try await tx.course(id: id) else { throw StoreError.notFound(id) }
        return course
    }
}

extension CourseStore {
    /// Counts of what the store holds, and its schema version.
    /// - Throws: ``StoreError/database(_:)``.
    public func summary() async throws -> StoreSummary {
        let counts = try await read { try await $0.counts() }
        return StoreSummary(
            path: path, schemaVersion: counts.schemaVersion, supportedSchemaVersion: backend.supportedSchemaVersion,
            courses: counts.courses, sharedCourses: counts.sharedCourses, owners: counts.owners, scraps: counts.scraps)
    }
}
