import Foundation
import Testing

@testable import RunnectKit

/// Courses that come back on themselves: loops, the same road out and back, a figure of eight.
@Suite("Matching: loops, out and back, crossings")
struct CourseMatchingShapeTests {
    typealias Build = MatchingTrackBuilder

    /// A 2 km square loop: its finish is its start.
    static let loop = Array(Build.course(legs: [(90, 500), (0, 500), (270, 500)])) + [Build.origin]
    static var loopMeters: Double { Geodesic.length(of: loop) }

    @Test("a loop run twice after a warm-up is timed on its first lap")
    func loopFromTheFirstPass() throws {
        let warmUpStart = Geodesic.destination(from: Build.origin, azimuthDegrees: 200, distanceMeters: 300)!
        let path = [warmUpStart] + Self.loop + Array(Self.loop.dropFirst())
        let match = try #require(CourseMatcher(run: Build.activity(Build.run(along: path))).match(course: Self.loop))
        #expect(match.coverage == 1)
        #expect(abs(Build.seconds(match.startTime) - 100) < 1e-3)
        #expect(abs(match.courseTimeSeconds - Self.loopMeters / 3) < 1e-3)
        #expect(abs(match.runDistanceAfterFinishMeters - Self.loopMeters) < 1e-2)
    }

    @Test("a loop run from its start but stopped 100 m short does not reach the finish after following it")
    func loopStoppedShort() {
        let short =
            Self.loop.dropLast() + [Geodesic.destination(from: Self.loop[3], azimuthDegrees: 180, distanceMeters: 400)!]
        let matcher = CourseMatcher(run: Build.activity(Build.run(along: Array(short))))
        // 90 % of the loop is followed, but its finish was only passed at the start.
        #expect(matcher.evaluate(course: Self.loop) == .failure(.finishNotReached(matchDistanceMeters: 30)))
        #expect(matcher.match(course: Self.loop) == nil)
    }

    @Test("a loop run the other way round does not match")
    func loopBackwards() {
        let matcher = CourseMatcher(run: Build.activity(Build.run(along: Self.loop.reversed())))
        #expect(matcher.match(course: Self.loop) == nil)
        #expect(matcher.evaluate(course: Self.loop) == .failure(.wrongDirection))
    }

    @Test("the same road out and back: matched whole, each way in its turn")
    func outAndBack() throws {
        let course = Build.course(legs: [(90, 1000), (270, 1000)])
        // GPS on the way back 4 m to the side of the way out, as on the other pavement.
        let run =
            Build.run(along: Array(course.prefix(2)))
            + Build.run(along: Array(course.suffix(2)), startSeconds: 1000 / 3, sideMeters: 4).dropFirst()
        let match = try #require(CourseMatcher(run: Build.activity(Array(run))).match(course: course))
        #expect(match.coverage == 1)
        #expect(abs(match.courseTimeSeconds - 2000 / 3) < 0.02)
    }

    @Test("the same road, run out only, covers half and does not match")
    func outOnly() {
        let course = Build.course(legs: [(90, 1000), (270, 1000)])
        let matcher = CourseMatcher(run: Build.activity(Build.run(along: Array(course.prefix(2)))))
        #expect(matcher.match(course: course) == nil)
        guard case .failure(.insufficientCoverage(let coverage, _, _)) = matcher.evaluate(course: course) else {
            Issue.record("expected insufficient coverage, got \(matcher.evaluate(course: course))")
            return
        }
        // The way out, and half the piece after the turn (whose end is 20 m from the run's end,
        // but not where the run passes it next: the run passed it before).
        #expect(abs(coverage - 1010.0 / 2000) < 1e-4)
    }

    @Test("a figure of eight crossing itself matches whole, and not backwards")
    func figureOfEight() throws {
        let diagonal = 1000 * 2.0.squareRoot()
        let course = Build.course(legs: [(45, diagonal), (180, 1000), (315, diagonal), (180, 1000)])
        let length = Geodesic.length(of: course)
        let matcher = CourseMatcher(run: Build.activity(Build.run(along: course)))
        let match = try #require(matcher.match(course: course))
        #expect(match.coverage == 1)
        #expect(abs(match.courseTimeSeconds - length / 3) < 1e-3)
        let backwards = CourseMatcher(run: Build.activity(Build.run(along: course.reversed())))
        #expect(backwards.match(course: course) == nil)
    }

    @Test("laps of a course drawn once are timed on the first lap that follows it")
    func lapsOfAnOpenCourse() throws {
        // An open course (east 1 km); the runner goes east, back west on a parallel street 200 m
        // north, and east again.
        let course = Build.course(legs: [(90, 1000)])
        let north = Build.course(from: course[1], legs: [(0, 200), (270, 1000), (180, 200)])
        let run = Build.run(along: course + Array(north.dropFirst()) + [course[1]])
        let match = try #require(CourseMatcher(run: Build.activity(run)).match(course: course))
        #expect(abs(Build.seconds(match.startTime)) < 1e-3)
        #expect(abs(match.courseTimeSeconds - 1000 / 3) < 1e-3)
    }
}
