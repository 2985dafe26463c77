import Foundation
import Testing

@testable import RunnectKit

/// Direction, warm-ups and partial runs on synthetic tracks whose figures are known exactly: a
/// 2 km course due east, run at 3 m/s with a point every 3 m.
@Suite("Matching: direction, warm-up, partial runs")
struct CourseMatchingTests {
    typealias Build = MatchingTrackBuilder
    static let course = Build.course(legs: [(90, 2000)])

    @Test("a run of the course matches it whole, timed start to finish")
    func exactRun() throws {
        let matcher = CourseMatcher(run: Build.activity(Build.run(along: Self.course)))
        let match = try #require(matcher.match(course: Self.course))
        #expect(match.coverage == 1)
        #expect(abs(match.courseDistanceMeters - 2000) < 1e-6)
        #expect(abs(match.courseTimeSeconds - 2000 / 3) < 1e-3)
        #expect(abs(try #require(match.coursePaceSecondsPerKilometer) - 1000 / 3) < 1e-3)
        #expect(abs(Build.seconds(match.startTime)) < 1e-3)
        #expect(abs(Build.seconds(match.finishTime) - 2000 / 3) < 1e-3)
        #expect(abs(match.runDistanceOnCourseMeters - 2000) < 1e-3)
        #expect(match.runDistanceBeforeStartMeters < 1e-3 && match.runDistanceAfterFinishMeters < 1e-3)
        #expect(match.startOffsetMeters < 1e-3 && match.finishOffsetMeters < 1e-3)
        #expect(try matcher.evaluate(course: Self.course).get() == match)
    }

    @Test("a warm-up before the start and a cool-down after the finish are not timed")
    func warmUpAndCoolDown() throws {
        let warmUpStart = Geodesic.destination(from: Build.origin, azimuthDegrees: 180, distanceMeters: 800)!
        let coolDownEnd = Geodesic.destination(from: Self.course[1], azimuthDegrees: 0, distanceMeters: 500)!
        let run = Build.run(along: [warmUpStart] + Self.course + [coolDownEnd])
        let match = try #require(CourseMatcher(run: Build.activity(run)).match(course: Self.course))
        #expect(match.coverage == 1)
        #expect(abs(match.courseTimeSeconds - 2000 / 3) < 1e-3)
        #expect(abs(Build.seconds(match.startTime) - 800 / 3) < 1e-3)
        #expect(abs(match.runDistanceBeforeStartMeters - 800) < 1e-3)
        #expect(abs(match.runDistanceAfterFinishMeters - 500) < 1e-3)
    }

    @Test("a warm-up that crosses the start first is not timed either")
    func warmUpCrossingTheStart() throws {
        // 300 m west, back through the start 300 m east, back again, then the course.
        let west = Geodesic.destination(from: Build.origin, azimuthDegrees: 270, distanceMeters: 300)!
        let east = Geodesic.destination(from: Build.origin, azimuthDegrees: 90, distanceMeters: 300)!
        let run = Build.run(along: [west, Build.origin, east, Build.origin] + Array(Self.course.dropFirst()))
        let match = try #require(CourseMatcher(run: Build.activity(run)).match(course: Self.course))
        #expect(abs(Build.seconds(match.startTime) - 900 / 3) < 1e-3)
        #expect(abs(match.courseTimeSeconds - 2000 / 3) < 1e-3)
    }

    @Test("the course run backwards does not match")
    func backwards() {
        let matcher = CourseMatcher(run: Build.activity(Build.run(along: Self.course.reversed())))
        #expect(matcher.match(course: Self.course) == nil)
        #expect(matcher.evaluate(course: Self.course) == .failure(.wrongDirection))
        #expect(matcher.match(course: Self.course.reversed()) != nil)
    }

    @Test("a run of half the course does not match: it never reaches the finish")
    func halfTheCourse() {
        let half = Build.run(along: Build.course(legs: [(90, 1000)]))
        let matcher = CourseMatcher(run: Build.activity(half))
        #expect(matcher.match(course: Self.course) == nil)
        #expect(matcher.evaluate(course: Self.course) == .failure(.finishNotReached(matchDistanceMeters: 30)))
    }

    @Test("a run that skips a bulge of the course covers 51.5 % of it and does not match")
    func shortcut() throws {
        // East 1 km, a 500 m × 1 km bulge north, east 1 km (4 km); the run goes straight (3 km).
        // Covered: both 1 km stretches, and 30 m at the foot of each side of the bulge (the piece
        // 0–20 m whole, the piece 20–40 m half, by the 20 m sampling).
        let course = Build.course(legs: [(90, 1000), (0, 500), (90, 1000), (180, 500), (90, 1000)])
        let run = Build.run(along: [course[0], course[5]])
        let matcher = CourseMatcher(run: Build.activity(run))
        #expect(matcher.match(course: course) == nil)
        guard
            case .failure(.insufficientCoverage(let coverage, let required, let meters)) = matcher.evaluate(
                course: course)
        else {
            Issue.record("expected insufficient coverage, got \(matcher.evaluate(course: course))")
            return
        }
        #expect(abs(coverage - 0.515) < 1e-4)
        #expect(required == 0.9 && meters == 30)
        #expect(
            CourseMismatch.insufficientCoverage(coverage: coverage, required: required, matchDistanceMeters: meters)
                .description == "only 51% of the course lies within 30 m of the run, in order (90% needed)")
        // With a lower bar the same run follows the course.
        let lenient = CourseMatcher(run: Build.activity(run), options: CourseMatchOptions(minimumCoverage: 0.5))
        #expect(try #require(lenient.match(course: course)).coverage == coverage)
    }

    @Test("a short detour off the course still matches, and its time counts")
    func detour() throws {
        // 100 m of the course at 900–1000 m are bypassed 60 m to the north.
        let at900 = Geodesic.destination(from: Build.origin, azimuthDegrees: 90, distanceMeters: 900)!
        let at1000 = Geodesic.destination(from: Build.origin, azimuthDegrees: 90, distanceMeters: 1000)!
        let north900 = Geodesic.destination(from: at900, azimuthDegrees: 0, distanceMeters: 60)!
        let north1000 = Geodesic.destination(from: at1000, azimuthDegrees: 0, distanceMeters: 60)!
        let run = Build.run(along: [Build.origin, at900, north900, north1000, at1000, Self.course[1]])
        let match = try #require(CourseMatcher(run: Build.activity(run)).match(course: Self.course))
        // The course points at 940 m and 960 m lie over 30 m from the detour's sides: 40 m of course
        // (the pieces 920–940 and 960–980 count half).
        #expect(abs(match.coverage - 0.98) < 1e-4)
        let runMeters = Geodesic.length(of: [Build.origin, at900, north900, north1000, at1000, Self.course[1]])
        #expect(abs(match.courseTimeSeconds - runMeters / 3) < 1e-2)
    }

    @Test("an unrelated run does not match: it never comes near the start")
    func unrelated() {
        let elsewhere = Geodesic.destination(from: Build.origin, azimuthDegrees: 0, distanceMeters: 500)!
        let matcher = CourseMatcher(
            run: Build.activity(Build.run(along: Build.course(from: elsewhere, legs: [(90, 2000)]))))
        #expect(matcher.evaluate(course: Self.course) == .failure(.startNotReached(matchDistanceMeters: 30)))
        #expect(matcher.match(course: Self.course) == nil)
    }
}
