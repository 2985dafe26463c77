import RunnectKit

/// A course's id and its distance from the point of a near-me search: what the backends'
/// near-me primitives return.
package struct CourseDistance: Sendable, Equatable {
    package var id: Int64
    /// The shortest geodesic distance on WGS84 from the point to the course's path, metres (see
    /// ``StoreTransaction/nearbyCourses(to:withinMeters:scope:limit:offset:)``).
    package var meters: Double

    package init(id: Int64, meters: Double) {
        self.id = id
        self.meters = meters
    }
}

/// Which courses a near-me search looks at: those of a list (``CourseListScope``), or every
/// course of the store (`search --all`).
package enum NearbyScope: Sendable, Equatable {
    case list(CourseListScope)
    case all

    package init(_ scope: SearchScope) {
        switch scope {
        case .shared: self = .list(.shared)
        case .all: self = .all
        }
    }
}
