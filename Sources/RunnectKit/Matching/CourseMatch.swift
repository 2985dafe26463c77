import Foundation

/// How a run followed a course, and the course time: what ``CourseMatcher`` finds when the run
/// follows it.
///
/// The course time runs from the moment the run passes the course's start to the moment it
/// passes its finish: each is the time at the run's place nearest to the course's start (or
/// finish) on that pass, interpolated by distance between the run's timed points around it, as
/// split times are. A warm-up before the start and a cool-down after the finish are not in it.
///
/// ## Ranking
///
/// When a run follows several courses, the best is the one it covers the most of:
/// the greatest ``matchedDistanceMeters`` (coverage × course distance), then the greatest
/// ``coverage``. ``ranksBelow(_:_:)`` is that order, for `max(by:)` and `sorted(by:)`.
public struct CourseMatch: Sendable, Equatable, Codable {
    /// The share of the course's length that lies within the match distance of the run, passed
    /// in the course's order, 0–1.
    public var coverage: Double
    /// The course's length: the sum of its geodesic legs, metres.
    public var courseDistanceMeters: Double
    /// Time from passing the start to passing the finish, seconds.
    public var courseTimeSeconds: Double
    /// ``courseTimeSeconds`` per kilometre of ``courseDistanceMeters``; `nil` (JSON `null`) for a
    /// course shorter than ``Pace/minimumMeters`` or a time that is not positive (see ``Pace``).
    public var coursePaceSecondsPerKilometer: Double?
    /// When the run passed the course's start, and its finish.
    public var startTime: Date
    public var finishTime: Date
    /// The run's own distance from its first point to the start passage (a warm-up), between the
    /// start and finish passages, and after the finish passage (a cool-down), metres.
    public var runDistanceBeforeStartMeters: Double
    public var runDistanceOnCourseMeters: Double
    public var runDistanceAfterFinishMeters: Double
    /// Geodesic distance from the course's start (finish) to the run's place nearest it on the
    /// pass that was timed, metres.
    public var startOffsetMeters: Double
    public var finishOffsetMeters: Double

    public init(
        coverage: Double, courseDistanceMeters: Double, courseTimeSeconds: Double,
        coursePaceSecondsPerKilometer: Double?, startTime: Date, finishTime: Date,
        runDistanceBeforeStartMeters: Double, runDistanceOnCourseMeters: Double,
        runDistanceAfterFinishMeters: Double, startOffsetMeters: Double, finishOffsetMeters: Double
    ) {
        self.coverage = coverage
        self.courseDistanceMeters = courseDistanceMeters
        self.courseTimeSeconds = courseTimeSeconds
        self.coursePaceSecondsPerKilometer = coursePaceSecondsPerKilometer
        self.startTime = startTime
        self.finishTime = finishTime
        self.runDistanceBeforeStartMeters = runDistanceBeforeStartMeters
        self.runDistanceOnCourseMeters = runDistanceOnCourseMeters
        self.runDistanceAfterFinishMeters = runDistanceAfterFinishMeters
        self.startOffsetMeters = startOffsetMeters
        self.finishOffsetMeters = finishOffsetMeters
    }

    /// The length of course the run covered: ``coverage`` × ``courseDistanceMeters``, metres.
    public var matchedDistanceMeters: Double { coverage * courseDistanceMeters }

    /// Whether `lhs` ranks below `rhs` as the course a run follows: less ``matchedDistanceMeters``,
    /// or as much and less ``coverage``.
    ///
    /// ```swift
    /// let best = candidates.compactMap { course in matcher.match(course: course.path).map { (course, $0) } }
    ///     .max { CourseMatch.ranksBelow($0.1, $1.1) }
    /// ```
    public static func ranksBelow(_ lhs: CourseMatch, _ rhs: CourseMatch) -> Bool {
        lhs.matchedDistanceMeters < rhs.matchedDistanceMeters
            || (lhs.matchedDistanceMeters == rhs.matchedDistanceMeters && lhs.coverage < rhs.coverage)
    }

    enum CodingKeys: String, CodingKey {
        case coverage
        case courseDistanceMeters = "course_distance_m"
        case courseTimeSeconds = "course_time_s"
        case coursePaceSecondsPerKilometer = "course_pace_s_per_km"
        case startTime = "start_time"
        case finishTime = "finish_time"
        case runDistanceBeforeStartMeters = "run_before_start_m"
        case runDistanceOnCourseMeters = "run_on_course_m"
        case runDistanceAfterFinishMeters = "run_after_finish_m"
        case startOffsetMeters = "start_offset_m"
        case finishOffsetMeters = "finish_offset_m"
    }

    /// Encodes every key, `null` for a course without a pace.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(coverage, forKey: .coverage)
        try c.encode(courseDistanceMeters, forKey: .courseDistanceMeters)
        try c.encode(courseTimeSeconds, forKey: .courseTimeSeconds)
        try c.encode(coursePaceSecondsPerKilometer, forKey: .coursePaceSecondsPerKilometer)
        try c.encode(startTime, forKey: .startTime)
        try c.encode(finishTime, forKey: .finishTime)
        try c.encode(runDistanceBeforeStartMeters, forKey: .runDistanceBeforeStartMeters)
        try c.encode(runDistanceOnCourseMeters, forKey: .runDistanceOnCourseMeters)
        try c.encode(runDistanceAfterFinishMeters, forKey: .runDistanceAfterFinishMeters)
        try c.encode(startOffsetMeters, forKey: .startOffsetMeters)
        try c.encode(finishOffsetMeters, forKey: .finishOffsetMeters)
    }
}
