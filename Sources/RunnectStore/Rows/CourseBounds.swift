import GRDB
import RunnectKit

/// A course's entries in the spatial indexes: its bounding box in `course_bounds`, and its start
/// in `course_start` with its finish and path length beside it, so that the courses a run may
/// have followed are found without reading every course.
///
/// A course crossing the antimeridian is entered with every longitude (the R*Tree's boxes cannot
/// wrap); the R*Tree stores 32-bit floats, rounded outwards, so a box never shrinks. The start,
/// the finish and the length, kept beside the boxes, are exact.
package struct CourseBounds: Equatable, Sendable {
    package var bounds: Bounds
    package var start: Coordinate
    package var finish: Coordinate
    /// RunnectKit's `CourseMatcher.pathMeters(of:)`: no match with the course covers more.
    package var pathMeters: Double

    /// The entries of an activity's course segments; `nil` when they hold no point with a
    /// position. The start and finish are the first and last points with a position
    /// (``CoursePieces/hasPosition(_:)``): the ends of the course's path (a FIT file's first
    /// record often has none, which gave a start of NaN that no run could reach).
    init?(_ activity: Activity) {
        let segments = activity.courseSegments
        guard let first = segments.lazy.joined().first(where: CoursePieces.hasPosition),
            let last = segments.reversed().lazy.map({ $0.reversed() }).joined().first(where: CoursePieces.hasPosition),
            let bounds = Bounds(enclosing: segments)
        else { return nil }
        self.bounds = bounds
        start = first.coordinate
        finish = last.coordinate
        pathMeters = CourseMatcher.pathMeters(of: activity)
    }

    /// Adds the entries for `courseID`.
    func insert(_ db: Database, courseID: Int64) throws {
        let (west, east) = bounds.crossesAntimeridian ? (-180.0, 180.0) : (bounds.minLongitude, bounds.maxLongitude)
        try db.cachedStatement(sql: "INSERT INTO course_bounds VALUES (?, ?, ?, ?, ?)").execute(
            arguments: [courseID, bounds.minLatitude, bounds.maxLatitude, west, east])
        try db.cachedStatement(sql: "INSERT INTO course_start VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)").execute(
            arguments: [
                courseID, start.latitude, start.latitude, start.longitude, start.longitude, start.latitude,
                start.longitude, finish.latitude, finish.longitude, pathMeters,
            ])
    }
}
