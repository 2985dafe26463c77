import GRDB
import RunnectKit

/// A course's entry in the `course_bounds` R*Tree: its bounding box, start and finish, so that
/// the courses a run may have followed are found without reading every course.
///
/// A course crossing the antimeridian is entered with every longitude (the R*Tree's boxes cannot
/// wrap); the R*Tree stores 32-bit floats, rounded outwards, so a box never shrinks.
struct CourseBounds: Equatable {
    var bounds: Bounds
    var start: Coordinate
    var finish: Coordinate

    /// The entry of an activity's course segments; `nil` when they hold no point.
    init?(_ activity: Activity) {
        let segments = activity.courseSegments
        guard let first = segments.first(where: { !$0.isEmpty })?.first,
            let last = segments.last(where: { !$0.isEmpty })?.last,
            let bounds = Bounds(enclosing: segments)
        else { return nil }
        self.bounds = bounds
        start = first.coordinate
        finish = last.coordinate
    }

    /// Adds the entry for `courseID`.
    func insert(_ db: Database, courseID: Int64) throws {
        let (west, east) = bounds.crossesAntimeridian ? (-180.0, 180.0) : (bounds.minLongitude, bounds.maxLongitude)
        try db.cachedStatement(sql: "INSERT INTO course_bounds VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)").execute(
            arguments: [
                courseID, bounds.minLatitude, bounds.maxLatitude, west, east, start.latitude, start.longitude,
                finish.latitude, finish.longitude,
            ])
    }
}
