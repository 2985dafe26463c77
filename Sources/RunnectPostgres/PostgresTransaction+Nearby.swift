import Foundation
import PostgresNIO
import RunnectKit
import RunnectStore

extension PostgresTransaction {
    // MARK: - Near-me search

    /// How far PostGIS's `<->` on `geography` (distance on a sphere of the WGS84 mean radius,
    /// what the GiST index orders by) may part from `ST_Distance` (on the ellipsoid): the
    /// meridian's radius of curvature is 0.53 % under the mean radius at the equator and 0.47 %
    /// over it at the poles, so 1 % is a safe bound.
    static let sphereMargin = 0.01

    /// Through the GiST index on the path pieces (`course_piece`, schema version 4): pieces in
    /// the index's nearest-first order (`<->`, within the radius by `ST_DWithin`), each
    /// measured by `ST_Distance` on the ellipsoid, a growing batch at a time, until the page's
    /// last exact distance is below what any piece not read yet can have (its sphere distance
    /// less the margin). A course is as near as its nearest piece. Only the pieces near the page
    /// are measured, however many courses lie within the radius.
    func nearbyCourses(
        to point: Coordinate, withinMeters radius: Double, scope: NearbyScope, limit: Int, offset: Int
    ) throws -> [CourseDistance] {
        guard limit > 0 else { return [] }
        let wanted = max(0, offset) + limit
        var batch = max(64, 4 * wanted)
        let scopeName =
            switch scope {
            case .all: "all"
            case .list(.shared): "shared"
            case .list(.scrapped): "scrapped"
            case .list(.mine(nil)): "mine"
            case .list(.mine(true)): "mine-shared"
            case .list(.mine(false)): "mine-private"
            }
        while true {
            // Through a function of the tables' owner: row-level security keeps the index out of
            // a runner's own query (see `PostgresSchema.nearbyFunction`).
            let rows = try query(
                """
                SELECT id, meters, sphere
                FROM runnect_nearby(\(point.longitude), \(point.latitude), \(radius), \(scopeName), \(Int32(clamping: batch)))
                """
            ).rows
            // A course is as near as its nearest piece read.
            var nearest: [Int64: Double] = [:]
            var lastSphere = 0.0
            for row in rows {
                let (id, meters, sphere) = try row.decode((Int64, Double, Double).self)
                nearest[id] = min(nearest[id] ?? .infinity, meters)
                lastSphere = sphere
            }
            let found = nearest.map { CourseDistance(id: $0.key, meters: $0.value) }
                .sorted { ($0.meters, $0.id) < ($1.meters, $1.id) }
            // Every piece not read is at least `lastSphere` less the margin away: once that is
            // past the page's last course, neither a new course nor another piece of one read
            // can change the page.
            let complete =
                rows.count < batch
                || (found.count >= wanted && lastSphere * (1 - Self.sphereMargin) > found[wanted - 1].meters)
            if complete { return Array(found.dropFirst(max(0, offset)).prefix(limit)) }
            batch *= 4
        }
    }

    func courseDistances(ids: [Int64], to point: Coordinate, withinMeters radius: Double) throws -> [Int64: Double] {
        guard !ids.isEmpty else { return [:] }
        var distances: [Int64: Double] = [:]
        let rows = try query(
            """
            SELECT c.id, ST_Distance(c.path, p.g)
            FROM course c, (SELECT ST_SetSRID(ST_MakePoint(\(point.longitude), \(point.latitude)), 4326)::geography AS g) p
            WHERE c.id = ANY(\(ids)) AND ST_DWithin(c.path, p.g, \(radius))
            """
        ).rows
        for row in rows {
            let (id, meters) = try row.decode((Int64, Double).self)
            distances[id] = meters
        }
        return distances
    }
}
