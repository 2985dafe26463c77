import Foundation
import PostgresNIO
import RunnectStore

extension PostgresTransaction {
    /// Row-level security leaves the live courses the runner may read (their own, shared ones)
    /// and the deleted ones kept for records they own or hold a record of (schema version 17).
    func recordCourses(ids: [Int64]) async throws -> [Int64: RecordCourse] {
        guard !ids.isEmpty else { return [:] }
        var found: [Int64: RecordCourse] = [:]
        for row in try await query(
            """
            SELECT id, departure_region, departure_city, departure_town, departure_detail, departure_name,
                   distance_m, is_uploaded
            FROM course WHERE id = ANY(\(ids))
            UNION ALL
            SELECT id, departure_region, departure_city, departure_town, departure_detail, departure_name,
                   distance_m, false
            FROM deleted_course WHERE id = ANY(\(ids))
            """
        ).rows {
            let r = row.makeRandomAccess()
            let region = try r[1].decode(String?.self)
            let departure = try region.map {
                Departure(
                    region: $0, city: try r[2].decode(String?.self) ?? "", town: try r[3].decode(String?.self) ?? "",
                    detail: try r[4].decode(String?.self), name: try r[5].decode(String?.self))
            }
            found[try r[0].decode(Int64.self)] = RecordCourse(
                departure: departure, distanceMeters: try r[6].decode(Double.self), isShared: try r[7].decode(Bool.self)
            )
        }
        return found
    }
}
