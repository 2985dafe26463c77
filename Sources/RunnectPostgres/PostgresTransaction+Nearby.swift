import Foundation
import PostgresNIO
import RunnectKit
import RunnectStore

extension PostgresTransaction {
    // MARK: - Near-me search

    /// The first ring's radius, metres, and how much each next ring grows: at a million
    /// courses, 25 m in central Seoul already holds a page; where courses are few the rings grow
    /// to the radius asked for in four more steps.
    static let firstRingMeters = 25.0
    static let ringGrowth = 4.0

    /// Through the GiST index of the path pieces' boxes (`course_piece`), by growing rings
    /// (`runnect_nearby_box`, schema version 9; version 6 read the pieces' `geography` index):
    /// the courses of `scope` within a ring, nearest first, each as near as its nearest piece (on
    /// the ellipsoid, `ST_Distance`), read from the pieces whose box meets the ring's
    /// (``NearbyBox``). Once a ring holds the page, no course outside it can enter it; else the
    /// ring grows, up to the radius.
    func nearbyCourses(
        to point: Coordinate, withinMeters radius: Double, scope: NearbyScope, limit: Int, offset: Int
    ) async throws -> [CourseDistance] {
        guard limit > 0 else { return [] }
        let wanted = max(0, offset) + limit
        if case .list(.sharedBy) = scope {
            throw StoreError.database("a near-me search of one runner's shared courses is not supported on PostgreSQL")
        }
        let scopeName =
            switch scope {
            case .list(.sharedBy): ""
            case .all: "all"
            case .list(.shared): "shared"
            case .list(.scrapped): "scrapped"
            case .list(.mine(nil)): "mine"
            case .list(.mine(true)): "mine-shared"
            case .list(.mine(false)): "mine-private"
            }
        var ring = min(radius, Self.firstRingMeters)
        while true {
            // Through a function of the tables' owner: row-level security keeps the index out of
            // a runner's own query (see `Migrations/v09-piece-boxes.sql`).
            let box = NearbyBox(around: point, meters: ring, bulgeDegrees: 0)
            let longitudes = box.longitudes.flatMap { [$0.lowerBound, $0.upperBound] }
            let rows = try await query(
                """
                SELECT id, meters
                FROM runnect_nearby_box(\(point.longitude), \(point.latitude), \(ring), \(box.minLatitude),
                                        \(box.maxLatitude), \(longitudes), \(scopeName), \(Int32(clamping: wanted)))
                """
            ).rows
            let found = try rows.map { row in
                let (id, meters) = try row.decode((Int64, Double).self)
                return CourseDistance(id: id, meters: meters)
            }
            if found.count >= wanted || ring >= radius {
                return Array(found.dropFirst(max(0, offset)).prefix(limit))
            }
            ring = min(radius, ring * Self.ringGrowth)
        }
    }

    /// Through `runnect_course_distances` (schema version 6): each course's pieces, tested
    /// against the radius's box before any is measured.
    func courseDistances(ids: [Int64], to point: Coordinate, withinMeters radius: Double) async throws -> [Int64:
        Double]
    {
        guard !ids.isEmpty else { return [:] }
        var distances: [Int64: Double] = [:]
        let rows = try await query(
            """
            SELECT id, meters FROM runnect_course_distances(\(ids), \(point.longitude), \(point.latitude), \(radius))
            """
        ).rows
        for row in rows {
            let (id, meters) = try row.decode((Int64, Double).self)
            distances[id] = meters
        }
        return distances
    }
}
