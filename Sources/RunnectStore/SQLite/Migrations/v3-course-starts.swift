import Foundation
import GRDB
import RunnectKit

/// Version 3 (`v3-course-starts.sql`) with its backfill: each stored course's entries in
/// `course_bounds` and `course_start`, computed by a copy of `CourseBounds` as it was when
/// version 3 shipped, so that a later change to the live type never changes what this migration
/// writes. Pinned by its checksum (`MigrationChecksumTests`): never edit, add a version.
enum CourseStartsMigration {
    static func migrate(_ db: Database, script: String) throws {
        try db.execute(sql: script)
        let rows = try Row.fetchCursor(db, sql: "SELECT id, geometry FROM course")
        while let row = try rows.next() {
            let blob: Data = row[1]
            guard let activity = try? ActivityCodec.decode(blob), let entry = Entry(activity) else { continue }
            try entry.insert(db, courseID: row[0])
        }
    }

    /// A course's box, start, finish and path length, as `CourseBounds` computed them.
    struct Entry {
        var bounds: Bounds
        var start: Coordinate
        var finish: Coordinate
        var pathMeters: Double

        init?(_ activity: Activity) {
            let segments = activity.courseSegments
            guard let first = segments.lazy.joined().first(where: Self.hasPosition),
                let last = segments.reversed().lazy.map({ $0.reversed() }).joined().first(where: Self.hasPosition),
                let bounds = Bounds(enclosing: segments)
            else { return nil }
            self.bounds = bounds
            start = first.coordinate
            finish = last.coordinate
            pathMeters = CourseMatcher.pathMeters(of: activity)
        }

        static func hasPosition(_ point: TrackPoint) -> Bool {
            point.latitude.isFinite && point.longitude.isFinite && abs(point.latitude) <= 90
        }

        func insert(_ db: Database, courseID: Int64) throws {
            let (west, east) =
                bounds.crossesAntimeridian ? (-180.0, 180.0) : (bounds.minLongitude, bounds.maxLongitude)
            try db.cachedStatement(sql: "INSERT INTO course_bounds VALUES (?, ?, ?, ?, ?)").execute(
                arguments: [courseID, bounds.minLatitude, bounds.maxLatitude, west, east])
            try db.cachedStatement(sql: "INSERT INTO course_start VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").execute(
                arguments: [
                    courseID, start.latitude, start.latitude, start.longitude, start.longitude, start.latitude,
                    start.longitude, finish.latitude, finish.longitude, pathMeters,
                ])
        }
    }
}
