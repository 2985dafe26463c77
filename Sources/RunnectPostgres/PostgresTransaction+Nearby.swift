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

    /// Through the GiST index on `path`: courses in the index's nearest-first order (`<->`,
    /// within the radius by `ST_DWithin`), each measured by `ST_Distance` on the ellipsoid, a
    /// growing batch at a time, until the page's last exact distance is below what any course
    /// not read yet can have (its sphere distance less the margin). Only the courses near the
    /// page are measured, however many lie within the radius.
    func nearbyCourses(
        to point: Coordinate, withinMeters radius: Double, scope: NearbyScope, limit: Int, offset: Int
    ) throws -> [CourseDistance] {
        guard limit > 0 else { return [] }
        let wanted = max(0, offset) + limit
        var batch = max(32, 2 * wanted)
        while true {
            var bindings = PostgresBindings()
            bindings.append(point.longitude)
            bindings.append(point.latitude)
            bindings.append(radius)
            // The point written out at each use (not a joined subquery): the index's order by
            // `<->` needs an expression of bound values.
            let g = "ST_SetSRID(ST_MakePoint($1, $2), 4326)::geography"
            var conditions = ["ST_DWithin(c.path, \(g), $3)"]
            if case .list(let list) = scope { conditions.append(scopeFilter(list, &bindings)) }
            bindings.append(batch)
            let sql = """
                SELECT c.id, ST_Distance(c.path, \(g)), c.path <-> \(g)
                FROM course c WHERE \(conditions.joined(separator: " AND "))
                ORDER BY c.path <-> \(g) LIMIT $\(bindings.count)
                """
            let rows = try query(PostgresQuery(unsafeSQL: sql, binds: bindings)).rows
            var found: [CourseDistance] = []
            var lastSphere = 0.0
            for row in rows {
                let (id, meters, sphere) = try row.decode((Int64, Double, Double).self)
                found.append(CourseDistance(id: id, meters: meters))
                lastSphere = sphere
            }
            found.sort { ($0.meters, $0.id) < ($1.meters, $1.id) }
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
