import Foundation

/// Decides whether a timed run follows a course and, when it does, measures the course time.
///
/// A run follows a course when at least ``CourseMatchOptions/minimumCoverage`` (90 %) of the
/// course's length lies within ``CourseMatchOptions/matchDistanceMeters`` (30 m, geodesic) of the
/// run, passed in the course's direction: the run reaches the course's start, then its finish,
/// and in between its progress along the course never goes back in time. Running before the
/// start and after the finish (a warm-up, a cool-down) is allowed and not timed. A course whose
/// start and finish lie close together (a loop) is matched from the first pass of its start.
/// The same road out and back, and courses that cross themselves, match in the order they are
/// drawn. See ``CourseMatch`` for the figures and ``CourseMismatch`` for the reasons a run does
/// not follow a course.
///
/// Build one matcher per run, then ask it about as many courses as needed:
///
/// ```swift
/// let matcher = CourseMatcher(run: try ActivityReader.read(path: "run.fit"))
/// for course in candidates {
///     if let match = matcher.match(course: course.path) {
///         print(course.title, RunnerFormat.duration(seconds: match.courseTimeSeconds))
///     }
/// }
/// ```
///
/// Building indexes the run's legs in a spatial hash of a local tangent plane (a few
/// milliseconds and about 1.3 MB for 10,000 points). A course is then rejected at the cost of a
/// few hash look-ups when the run never comes near its start or its finish, and shortly after a
/// tenth of it turns out to be off the run; a course the run follows costs a look-up and about
/// one geodesic per 20 m of course, and one per leg of the course for its length. Every distance
/// compared with the match distance is a geodesic one (GeographicLib, through ``Geodesic``); the
/// plane only says which legs to measure. `runnect-bench matching` times it.
///
/// The run's points are taken in order, all tracks and segments joined (a pause is a leg like
/// any other), on the forward-only timeline of its stats (times that step back or jump ahead are
/// handled as ``ActivityStats`` does). Points without a position are left out; points without a time still
/// shape the path, and times are interpolated between the timed points around them.
public struct CourseMatcher: Sendable {
    /// The thresholds this matcher decides with.
    public let options: CourseMatchOptions
    let run: IndexedRun

    /// Indexes a run's ``Activity/courseSegments``.
    ///
    /// - Precondition: `options.matchDistanceMeters` is positive and finite, and
    ///   `options.minimumCoverage` is within 0…1.
    /// - Complexity: O(n log n) for n points, with one call into GeographicLib for all legs.
    public init(run: Activity, options: CourseMatchOptions = .init()) {
        self.init(segments: run.courseSegments, deviceTotals: run.deviceTotals, options: options)
    }

    /// Indexes a run given as segments of points, in order.
    ///
    /// - Parameters:
    ///   - segments: The run's segments.
    ///   - deviceTotals: What the device says of the run: its time bounds a step forward in time,
    ///     as for ``ActivityStats/init(segments:timerPauses:deviceTotals:options:)``.
    ///   - options: The thresholds.
    public init(segments: [[TrackPoint]], deviceTotals: DeviceTotals? = nil, options: CourseMatchOptions = .init()) {
        precondition(
            options.matchDistanceMeters > 0 && options.matchDistanceMeters.isFinite,
            "the match distance must be positive and finite")
        precondition((0...1).contains(options.minimumCoverage), "the minimum coverage must be within 0...1")
        self.options = options
        // Cells as wide as the match distance, but not so small that a long leg fills thousands.
        run = IndexedRun(
            segments: segments, deviceTotals: deviceTotals, cellMeters: max(options.matchDistanceMeters, 10))
    }

    /// The match of the run with a course, or `nil` when the run does not follow it (or gives no
    /// course time): the fast check for many candidate courses.
    ///
    /// Accepts exactly the courses ``evaluate(course:)-([Coordinate])`` accepts, with the same figures; it
    /// only gives up sooner on the others.
    /// - Parameter course: The course's points in order (tapped points joined by geodesic legs,
    ///   or a recorded track). Points without a valid position are left out.
    public func match(course: [Coordinate]) -> CourseMatch? {
        guard run.isTimed else { return nil }
        return try? measure(course: Self.positioned(course), stopsEarly: true).get()
    }

    /// The match with a course given as an activity (its ``Activity/courseSegments`` joined).
    public func match(course: Activity) -> CourseMatch? {
        match(course: Self.path(of: course))
    }

    /// Whether the run could follow a course that starts at `start` and finishes at `finish`:
    /// it passes within the match distance of the start, and of the finish no earlier.
    ///
    /// A necessary condition of ``match(course:)-([Coordinate])``, the first thing it checks,
    /// at the cost of a few hash look-ups and a geodesic or two (about a microsecond): a store
    /// asks it of every course near the run before reading any course's path.
    public func reaches(start: Coordinate, thenFinish finish: Coordinate) -> Bool {
        guard run.isTimed else { return false }
        var finder = PassFinder(run: run, matchMeters: options.matchDistanceMeters)
        guard let firstStart = finder.passes(near: start).first,
            let lastFinish = finder.passes(near: finish).last
        else { return false }
        return lastFinish.position >= firstStart.position
    }

    /// The length a matcher measures `course` by (its ``Activity/courseSegments`` joined, the
    /// sum of their geodesic legs): the ``CourseMatch/courseDistanceMeters`` of any match with
    /// it, so never less than its ``CourseMatch/matchedDistanceMeters``. A store keeps it to
    /// skip the courses too short to beat a match found already.
    public static func pathMeters(of course: Activity) -> Double {
        Geodesic.length(of: path(of: course))
    }

    /// The match of the run with a course, or why there is none: the check to explain.
    ///
    /// Unlike ``match(course:)-([Coordinate])`` it measures the coverage to the end when it falls short, and
    /// tells a course run backwards (``CourseMismatch/wrongDirection``) by trying the reversed
    /// course, so it may cost a few times more on a course the run does not follow.
    public func evaluate(course: [Coordinate]) -> Result<CourseMatch, CourseMismatch> {
        guard run.isTimed else { return .failure(run.legCount > 0 ? .runHasNoTimes : .runHasNoTrack) }
        let path = Self.positioned(course)
        let result = measure(course: path, stopsEarly: false)
        switch result {
        case .failure(.finishBeforeStart), .failure(.insufficientCoverage):
            if case .success = CourseAlignment.align(path.reversed(), with: run, options: options, stopsEarly: true) {
                return .failure(.wrongDirection)
            }
            return result
        default:
            return result
        }
    }

    /// The match with a course given as an activity (its ``Activity/courseSegments`` joined).
    public func evaluate(course: Activity) -> Result<CourseMatch, CourseMismatch> {
        evaluate(course: Self.path(of: course))
    }

    // MARK: - Measuring

    private func measure(course: [Coordinate], stopsEarly: Bool) -> Result<CourseMatch, CourseMismatch> {
        CourseAlignment.align(course, with: run, options: options, stopsEarly: stopsEarly).flatMap { alignment in
            guard let start = run.seconds(at: alignment.start.position),
                let finish = run.seconds(at: alignment.finish.position)
            else { return .failure(.passageNotTimed(coverage: alignment.coverage)) }
            let courseMeters = Geodesic.length(of: course)
            let startMeters = run.meters(at: alignment.start.position)
            let finishMeters = run.meters(at: alignment.finish.position)
            let seconds = finish - start
            return .success(
                CourseMatch(
                    coverage: alignment.coverage, courseDistanceMeters: courseMeters, courseTimeSeconds: seconds,
                    coursePaceSecondsPerKilometer: Pace.secondsPerKilometer(seconds: seconds, meters: courseMeters),
                    startTime: Date(timeIntervalSinceReferenceDate: start),
                    finishTime: Date(timeIntervalSinceReferenceDate: finish),
                    runDistanceBeforeStartMeters: startMeters,
                    runDistanceOnCourseMeters: finishMeters - startMeters,
                    runDistanceAfterFinishMeters: (run.cumulativeMeters.last ?? 0) - finishMeters,
                    startOffsetMeters: alignment.start.meters, finishOffsetMeters: alignment.finish.meters))
        }
    }

    /// The points with a usable position (finite, latitude within ±90°), in order.
    private static func positioned(_ course: [Coordinate]) -> [Coordinate] {
        course.allSatisfy(hasPosition) ? course : course.filter(hasPosition)
    }

    private static func hasPosition(_ coordinate: Coordinate) -> Bool {
        coordinate.latitude.isFinite && coordinate.longitude.isFinite && abs(coordinate.latitude) <= 90
    }

    private static func path(of course: Activity) -> [Coordinate] {
        course.courseSegments.joined().compactMap { SegmentMeasurement.hasPosition($0) ? $0.coordinate : nil }
    }
}
