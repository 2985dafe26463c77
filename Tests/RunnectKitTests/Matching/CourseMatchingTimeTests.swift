import Foundation
import Testing

@testable import RunnectKit

/// Where the course time comes from: untimed points, pauses between segments, no times at all.
@Suite("Matching: course times")
struct CourseMatchingTimeTests {
    typealias Build = MatchingTrackBuilder
    static let course = Build.course(legs: [(90, 2000)])
    /// Starts 100 m before the course and ends 100 m after it, so both passages fall between points.
    static let run = Build.run(
        along: Build.course(
            from: Geodesic.destination(from: Build.origin, azimuthDegrees: 270, distanceMeters: 100)!,
            legs: [(90, 2200)]), stepMeters: 7)

    @Test("a passage between two points is timed by interpolation, as splits are")
    func interpolated() throws {
        let match = try #require(CourseMatcher(run: Build.activity(Self.run)).match(course: Self.course))
        #expect(abs(Build.seconds(match.startTime) - 100 / 3) < 1e-3)
        #expect(abs(match.courseTimeSeconds - 2000 / 3) < 1e-3)
    }

    @Test("points without a time shape the path; the time is interpolated across them")
    func untimedPoints() throws {
        var run = Self.run
        for index in run.indices where index % 3 != 0 { run[index].time = nil }
        let match = try #require(CourseMatcher(run: Build.activity(run)).match(course: Self.course))
        #expect(abs(Build.seconds(match.startTime) - 100 / 3) < 1e-3)
        #expect(abs(match.courseTimeSeconds - 2000 / 3) < 1e-3)
    }

    @Test("a run without timestamps follows the course but gives no course time")
    func noTimes() {
        let run = Self.run.map { TrackPoint(latitude: $0.latitude, longitude: $0.longitude) }
        let matcher = CourseMatcher(run: Build.activity(run))
        #expect(matcher.match(course: Self.course) == nil)
        #expect(matcher.evaluate(course: Self.course) == .failure(.runHasNoTimes))
    }

    @Test("a run timed only after the start passage gives no course time")
    func timedTooLate() {
        var run = Self.run
        for index in run.indices where index < run.count / 2 { run[index].time = nil }
        let matcher = CourseMatcher(run: Build.activity(run))
        #expect(matcher.match(course: Self.course) == nil)
        #expect(matcher.evaluate(course: Self.course) == .failure(.passageNotTimed(coverage: 1)))
    }

    @Test("segments are joined in order; a pause between them is in the course time")
    func pause() throws {
        let half = Self.run.count / 2
        let second = Self.run[half...].map { point in
            var point = point
            point.time = point.time!.addingTimeInterval(90)
            return point
        }
        let match = try #require(
            CourseMatcher(run: Build.activity(Array(Self.run[..<half]), second)).match(course: Self.course))
        #expect(abs(match.courseTimeSeconds - (2000 / 3 + 90)) < 1e-3)
    }

    @Test("a run with one point, or none, has no track")
    func noTrack() {
        let matcher = CourseMatcher(run: Build.activity(Array(Self.run.prefix(1))))
        #expect(matcher.evaluate(course: Self.course) == .failure(.runHasNoTrack))
        #expect(CourseMatcher(run: Build.activity()).evaluate(course: Self.course) == .failure(.runHasNoTrack))
    }

    @Test("a course without length is refused; points without a position are left out")
    func courseWithoutLength() throws {
        let matcher = CourseMatcher(run: Build.activity(Self.run))
        #expect(matcher.evaluate(course: [Build.origin, Build.origin]) == .failure(.courseHasNoLength))
        #expect(matcher.evaluate(course: [Build.origin]) == .failure(.courseHasNoLength))
        let withHoles =
            [Coordinate(latitude: .nan, longitude: 0)] + Self.course + [Coordinate(latitude: 91, longitude: 0)]
        #expect(try matcher.evaluate(course: withHoles).get() == matcher.match(course: Self.course))
    }

    @Test("a course given as an activity matches as its points do")
    func courseActivity() throws {
        let matcher = CourseMatcher(run: Build.activity(Self.run))
        let drawn = Activity(format: .pointsText, routes: [Route(points: Self.course.map { TrackPoint($0) })])
        let match = try #require(matcher.match(course: drawn))
        #expect(match == matcher.match(course: Self.course))
    }
}
