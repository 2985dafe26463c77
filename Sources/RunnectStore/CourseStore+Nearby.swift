import Foundation
import RunnectKit

/// A course found by a near-me search, with how far its path passes from the point.
public struct NearbyCourse: Equatable, Sendable {
    /// The course, as the current user sees it.
    public var course: Course
    /// The shortest geodesic distance on WGS84 from the point to the course's path (to the
    /// closest point of any leg, not only of its points), metres.
    public var distanceMeters: Double

    public init(course: Course, distanceMeters: Double) {
        self.course = course
        self.distanceMeters = distanceMeters
    }
}

extension CourseStore {
    // MARK: - Near-me search

    /// The distance a near-me search looks within unless told otherwise: 5 km.
    public static let defaultNearbyMeters = 5_000.0
    /// The largest distance a near-me search takes: 1,000 km (past that, search by keyword).
    public static let maximumNearbyMeters = 1_000_000.0

    /// The courses of `scope` whose path passes within `withinMeters` of `point`, closest first.
    ///
    /// The distance is geodesic on WGS84 from the point to the closest point of the course's
    /// path (its `Activity.courseSegments`, legs followed as geodesics), to about
    /// 10 µm; a course at exactly `withinMeters` is in. Ties are broken by id, so pages are stable.
    ///
    /// - Parameters:
    ///   - point: Where the runner is.
    ///   - withinMeters: How far the path may pass, more than 0 and at most ``maximumNearbyMeters``.
    ///   - scope: Every user's shared courses (the default), the user's own, or their scraps.
    ///   - page: Which page, of how many courses.
    ///   - peek: How many courses past the page to read too (1: whether there is a next page,
    ///     in the same search).
    /// - Throws: ``StoreError/invalidNearbyPoint(_:)``, ``StoreError/invalidNearbyDistance(meters:maximum:)``,
    ///   ``StoreError/invalidPage(limit:number:)``, ``StoreError/corruptGeometry(id:reason:)``.
    /// - Complexity: The courses measured are about those whose box holds the point or lies
    ///   closer than the page's last course (on SQLite; see `SQLiteNearbySearch`).
    public func nearby(
        _ point: Coordinate, withinMeters: Double = defaultNearbyMeters, scope: CourseListScope = .shared,
        page: Page = Page(), peek: Int = 0
    ) async throws -> [NearbyCourse] {
        try Self.checkNearby(point, withinMeters: withinMeters)
        let offset = try page.offset()
        let limit = page.limit + max(0, peek)
        return try await read { tx in
            let found = try await tx.nearbyCourses(
                to: point, withinMeters: withinMeters, scope: .list(scope), limit: limit, offset: offset)
            return try await self.nearbyCourses(tx, found)
        }
    }

    /// Courses matching every keyword whose path passes within `withinMeters` of `point`, in the
    /// keyword search's order (see ``search(keywords:scope:sort:page:)``); blank keywords list
    /// the courses of `scope` closest first, as ``nearby(_:withinMeters:scope:page:peek:)`` does.
    ///
    /// - Throws: What ``search(keywords:scope:sort:page:)`` and
    ///   ``nearby(_:withinMeters:scope:page:peek:)`` throw.
    /// - Complexity: Keyword matches are read in their order, a growing batch at a time, and
    ///   measured until the page is full: a keyword common elsewhere but rare near the point
    ///   reads many of them.
    public func search(
        keywords: String, near point: Coordinate, withinMeters: Double = defaultNearbyMeters,
        scope: SearchScope = .shared, sort: CourseSort = .relevance, page: Page = Page()
    ) async throws -> [NearbyCourse] {
        try Self.checkKeywords(keywords)
        try Self.checkNearby(point, withinMeters: withinMeters)
        let offset = try page.offset()
        guard !KoreanText.words(in: keywords).isEmpty else {
            return try await read { tx in
                let found = try await tx.nearbyCourses(
                    to: point, withinMeters: withinMeters, scope: NearbyScope(scope), limit: page.limit,
                    offset: offset)
                return try await self.nearbyCourses(tx, found)
            }
        }
        return try await read { tx in
            let wanted = offset + page.limit
            var matches: [CourseDistance] = []
            var read = 0
            var batch = max(64, 4 * wanted)
            while matches.count < wanted {
                // The matches in their order, from the first (the search's plans are fastest
                // from the start), the ones read before skipped.
                let ids = try await tx.searchIDs(
                    SearchRequest(keywords: keywords, scope: scope, sort: sort, limit: batch, offset: 0))
                let fresh = Array(ids.dropFirst(read))
                let distances = try await tx.courseDistances(ids: fresh, to: point, withinMeters: withinMeters)
                matches += fresh.compactMap { id in distances[id].map { CourseDistance(id: id, meters: $0) } }
                read = ids.count
                guard ids.count == batch else { break }
                batch *= 4
            }
            return try await self.nearbyCourses(tx, Array(matches.dropFirst(offset).prefix(page.limit)))
        }
    }

    /// Refuses a point off the globe and a distance out of range before any SQL runs.
    static func checkNearby(_ point: Coordinate, withinMeters: Double) throws {
        guard point.isValid else { throw StoreError.invalidNearbyPoint(point) }
        guard withinMeters > 0, withinMeters <= maximumNearbyMeters else {
            throw StoreError.invalidNearbyDistance(meters: withinMeters, maximum: maximumNearbyMeters)
        }
    }

    /// The courses of `found`, in its order, with their distances.
    private func nearbyCourses(_ tx: any StoreTransaction, _ found: [CourseDistance]) async throws -> [NearbyCourse] {
        let courses = try await tx.courses(ids: found.map(\.id))
        let byID = Dictionary(courses.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return found.compactMap { entry in byID[entry.id].map { NearbyCourse(course: $0, distanceMeters: entry.meters) }
        }
    }
}
