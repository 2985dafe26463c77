import Foundation
import Testing

@testable import RunnectKit

/// The thresholds: the match distance decides to the centimetre, geodesically.
@Suite("Matching: thresholds")
struct CourseMatchingOptionsTests {
    typealias Build = MatchingTrackBuilder
    static let course = Build.course(legs: [(90, 2000)])

    @Test("a run 40 m to the side matches within 50 m, not within 30 m")
    func offsetRun() throws {
        let run = Build.activity(Build.run(along: Self.course, sideMeters: 40))
        let strict = CourseMatcher(run: run)
        #expect(strict.match(course: Self.course) == nil)
        #expect(strict.evaluate(course: Self.course) == .failure(.startNotReached(matchDistanceMeters: 30)))
        let lenient = CourseMatcher(run: run, options: CourseMatchOptions(matchDistanceMeters: 50))
        let match = try #require(lenient.match(course: Self.course))
        #expect(match.coverage == 1)
        #expect(abs(match.startOffsetMeters - 40) < 1e-3 && abs(match.finishOffsetMeters - 40) < 1e-3)
        #expect(abs(match.courseTimeSeconds - 2000 / 3) < 1e-2)
    }

    @Test("the match distance is geodesic, to the centimetre", arguments: [(29.95, true), (30.05, false)])
    func edgeOfTheMatchDistance(side: Double, matches: Bool) {
        let matcher = CourseMatcher(run: Build.activity(Build.run(along: Self.course, sideMeters: side)))
        #expect((matcher.match(course: Self.course) != nil) == matches)
    }

    @Test("at high latitude too (the plane is only a filter)", arguments: [(29.95, true), (30.05, false)])
    func edgeOfTheMatchDistanceUpNorth(side: Double, matches: Bool) {
        let course = Build.course(from: Coordinate(latitude: 78.22, longitude: 15.65), legs: [(60, 1500), (150, 800)])
        let matcher = CourseMatcher(run: Build.activity(Build.run(along: course, sideMeters: side)))
        #expect((matcher.match(course: course) != nil) == matches)
    }

    @Test("minimum coverage: a run missing a fifth of the course matches at 0.75, not at 0.9")
    func coverageOption() throws {
        // The run leaves the course at 1000 m and rejoins it at 1500 m, 300 m to the north.
        let at1000 = Geodesic.destination(from: Build.origin, azimuthDegrees: 90, distanceMeters: 1000)!
        let at1500 = Geodesic.destination(from: Build.origin, azimuthDegrees: 90, distanceMeters: 1500)!
        let away = Geodesic.destination(from: at1000, azimuthDegrees: 45, distanceMeters: 300)!
        let run = Build.activity(Build.run(along: [Build.origin, at1000, away, at1500, Self.course[1]]))
        #expect(CourseMatcher(run: run).match(course: Self.course) == nil)
        let match = try #require(
            CourseMatcher(run: run, options: CourseMatchOptions(minimumCoverage: 0.75)).match(course: Self.course))
        // Within 30 m of the detour's legs: 1000–1042 m (30 m / sin 45°) and 1449–1500 m (30 m /
        // sin 36.4°, the angle of the leg back), ±10 m of sampling: 1593 m of 2000 m.
        #expect(abs(match.coverage - 0.7965) < 0.005)
    }
}
