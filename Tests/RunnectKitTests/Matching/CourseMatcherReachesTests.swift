import Foundation
import Testing

@testable import RunnectKit

/// `reaches(start:thenFinish:)`, the check a store makes of a course's two ends before reading its
/// path: true whenever the run follows the course, false when it misses an end or meets them in
/// the wrong order. A 2 km course due east, run at 3 m/s with a point every 3 m.
@Suite("Matching: the ends-first check")
struct CourseMatcherReachesTests {
    typealias Build = MatchingTrackBuilder
    static let course = Build.course(legs: [(90, 2000)])
    static let matcher = CourseMatcher(run: Build.activity(Build.run(along: course)))

    @Test("a course the run follows passes the check")
    func followed() {
        #expect(Self.matcher.match(course: Self.course) != nil)
        #expect(Self.matcher.reaches(start: Self.course[0], thenFinish: Self.course[1]))
    }

    @Test("the ends of the course backwards are met in the wrong order")
    func backwards() {
        #expect(!Self.matcher.reaches(start: Self.course[1], thenFinish: Self.course[0]))
    }

    @Test(
        "an end 29.9 m off the run is reached, 30.1 m off is not (geodesic)",
        arguments: [(29.9, true), (30.1, false)])
    func endOffTheRun(meters: Double, reached: Bool) {
        let middle = Geodesic.destination(from: Self.course[0], azimuthDegrees: 90, distanceMeters: 1000)!
        let aside = Geodesic.destination(from: middle, azimuthDegrees: 0, distanceMeters: meters)!
        #expect(Self.matcher.reaches(start: Self.course[0], thenFinish: aside) == reached)
        #expect(Self.matcher.reaches(start: aside, thenFinish: Self.course[1]) == reached)
    }

    @Test("a loop's start and finish at one point are reached by a run through it")
    func loop() {
        let middle = Geodesic.destination(from: Self.course[0], azimuthDegrees: 90, distanceMeters: 700)!
        #expect(Self.matcher.reaches(start: middle, thenFinish: middle))
    }

    @Test("a run without times reaches nothing (it cannot be timed on any course)")
    func untimed() {
        let points = Build.run(along: Self.course).map { TrackPoint(latitude: $0.latitude, longitude: $0.longitude) }
        let matcher = CourseMatcher(run: Build.activity(points))
        #expect(!matcher.reaches(start: Self.course[0], thenFinish: Self.course[1]))
    }
}
