/// The thresholds that decide whether a run follows a course; see ``CourseMatcher``.
public struct CourseMatchOptions: Sendable, Equatable, Codable {
    /// How far from the run a point of the course may lie and still count as run, metres
    /// (geodesic). Must be positive and finite.
    ///
    /// The default, 30 m, covers two errors that add up. A watch's GPS puts a runner 5–15 m off
    /// where they were in the open (more between tall buildings, under trees, in canyons); and a
    /// course drawn by tapping a map follows the map's road line, which may lie on the far side
    /// of a wide road or a park path from where the runner actually ran. Closer thresholds reject
    /// real runs of the course; much wider ones start to confuse parallel streets a block apart.
    public var matchDistanceMeters: Double

    /// The share of the course's length that must lie within ``matchDistanceMeters`` of the run,
    /// passed in order, 0–1. Must be in 0…1 (0 needs the start and finish only).
    ///
    /// The default, 0.9, tolerates what happens on a real run of a course: a short detour around
    /// roadworks or a closed path, a stretch where the GPS dropped out (a tunnel, an underpass),
    /// a corner cut through a park. It still rejects a run of half the course, or one that took
    /// a shortcut across a tenth of it.
    public var minimumCoverage: Double

    /// The default match distance, metres.
    public static let defaultMatchDistanceMeters = 30.0
    /// The default minimum coverage.
    public static let defaultMinimumCoverage = 0.9

    /// Options with the given values; every parameter defaults to the running default.
    public init(
        matchDistanceMeters: Double = CourseMatchOptions.defaultMatchDistanceMeters,
        minimumCoverage: Double = CourseMatchOptions.defaultMinimumCoverage
    ) {
        self.matchDistanceMeters = matchDistanceMeters
        self.minimumCoverage = minimumCoverage
    }

    enum CodingKeys: String, CodingKey {
        case matchDistanceMeters = "match_distance_m"
        case minimumCoverage = "minimum_coverage"
    }
}
