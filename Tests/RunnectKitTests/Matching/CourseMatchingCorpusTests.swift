import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

/// The Forerunner 945 run (Sloatsburg, NY, 14.16 km, one fix a second) of the shared corpus,
/// exported as GPX, TCX and FIT, against courses drawn from it.
@Suite("Matching: the Forerunner 945 run (shared corpus)", .sharedCorpus)
struct CourseMatchingCorpusTests {
    typealias Courses = MatchingCorpusCourses

    /// The GPX export's points, and the course drawn from them.
    static let points = (try? Courses.read(Courses.fr945Files[0])).map(Courses.points) ?? []
    static let course = points.isEmpty ? [] : Courses.drawnTaps(points)

    @Test("taps every 300 m of the run cut its corners: 85 % of such a course lies within 30 m")
    func evenTaps() throws {
        // A trail: between two taps 300 m of run apart, the run bends by more than 30 m often
        // enough that the chords leave 15 % of the course out of reach. Hence the drawn course
        // below, with taps at the turns.
        let taps = Courses.evenTaps(Self.points, spacing: 300)
        #expect(taps.count == 48)
        let matcher = CourseMatcher(run: try Courses.read(Courses.fr945Files[0]))
        guard case .failure(.insufficientCoverage(let coverage, _, _)) = matcher.evaluate(course: taps) else {
            Issue.record("expected insufficient coverage, got \(matcher.evaluate(course: taps))")
            return
        }
        #expect(abs(coverage - 0.85) < 0.01, "coverage \(coverage)")
    }

    @Test("the GPX, TCX and FIT exports all follow the drawn course, timed within 1 s of each other")
    func threeExports() throws {
        #expect(Self.course.count > 100 && Self.course.count < 200, "\(Self.course.count) taps")
        var times: [Double] = []
        for file in Courses.fr945Files {
            let match = try #require(CourseMatcher(run: try Courses.read(file)).match(course: Self.course), "\(file)")
            #expect(match.coverage > 0.99, "\(file): coverage \(match.coverage)")
            #expect(abs(match.courseDistanceMeters - Geodesic.length(of: Self.course)) < 1e-6)
            #expect(match.startOffsetMeters < 1 && match.finishOffsetMeters < 1, "\(file)")
            times.append(match.courseTimeSeconds)
        }
        #expect(times.max()! - times.min()! < 1, "\(times)")
        // The course runs from the run's first point to its last: its time is the run's duration.
        let duration = try SharedCorpus.figure(Courses.fr945Files[0], "duration_s")
        #expect(abs(times[0] - duration) < 0.5, "\(times[0]) s vs \(duration) s")
    }

    @Test("the GPX track itself as a recorded course: the TCX and FIT runs follow it, its length is the reference's")
    func recordedCourse() throws {
        let course = Self.points.map(\.coordinate)
        let length = try SharedCorpus.figure(Courses.fr945Files[0], "length_2d_geodesic_m")
        for file in Courses.fr945Files.dropFirst() {
            let match = try #require(CourseMatcher(run: try Courses.read(file)).match(course: course), "\(file)")
            #expect(match.coverage > 0.999, "\(file): \(match.coverage)")
            #expect(abs(match.courseDistanceMeters - length) < 1e-3, "\(match.courseDistanceMeters) vs \(length)")
            #expect(abs(match.courseTimeSeconds - 4989) < 1, "\(file): \(match.courseTimeSeconds)")
        }
    }

    @Test("a warm-up of 2 km before the course's start is not in the course time")
    func warmUp() throws {
        // The course starts 2 km into the run, at a tap placed exactly on it.
        let start = Courses.place(Self.points, at: 2000)
        let course = [start.coordinate] + Courses.drawnTaps(Array(Self.points[start.next...]))
        let end = try #require(Self.points.last?.time)
        let expected = end.timeIntervalSince(start.time)
        var times: [Double] = []
        for file in Courses.fr945Files {
            let match = try #require(CourseMatcher(run: try Courses.read(file)).match(course: course), "\(file)")
            #expect(
                abs(match.runDistanceBeforeStartMeters - 2000) < 2, "\(file): \(match.runDistanceBeforeStartMeters)")
            times.append(match.courseTimeSeconds)
        }
        #expect(abs(times[0] - expected) < 0.1, "GPX \(times[0]) s vs \(expected) s from the run's own timestamps")
        #expect(times.max()! - times.min()! < 1, "\(times)")
        // The warm-up took its ten minutes: the course time is that much shorter than the run.
        #expect(abs(start.time.timeIntervalSince(Self.points[0].time!) - 598.5) < 0.1)
    }

    @Test("half of the run does not follow the course: it never reaches the finish")
    func halfTheRun() throws {
        let half = Array(Self.points.prefix(Self.points.count / 2))
        let matcher = CourseMatcher(segments: [half])
        #expect(matcher.match(course: Self.course) == nil)
        #expect(matcher.evaluate(course: Self.course) == .failure(.finishNotReached(matchDistanceMeters: 30)))
        // The second half never comes near the start.
        let second = CourseMatcher(segments: [Array(Self.points.suffix(Self.points.count / 2))])
        #expect(second.evaluate(course: Self.course) == .failure(.startNotReached(matchDistanceMeters: 30)))
    }

    @Test("half of the course is followed by the run, and timed as the run's first half")
    func halfTheCourse() throws {
        let middle = Courses.place(Self.points, at: 7000)
        let firstHalf = Courses.drawnTaps(Array(Self.points[..<middle.next])) + [middle.coordinate]
        let match = try #require(CourseMatcher(segments: [Self.points]).match(course: firstHalf))
        #expect(abs(match.courseTimeSeconds - middle.time.timeIntervalSince(Self.points[0].time!)) < 0.1)
    }

    @Test("the course reversed does not match: the run follows it the other way round")
    func reversed() throws {
        let matcher = CourseMatcher(run: try Courses.read(Courses.fr945Files[0]))
        #expect(matcher.match(course: Self.course.reversed()) == nil)
        #expect(matcher.evaluate(course: Self.course.reversed()) == .failure(.wrongDirection))
    }

    @Test(
        "unrelated runs of the corpus do not follow the course",
        arguments: ["gpx/garmin_connect_run_casual_stroll.gpx", "fit/coros_apex_pro_run.fit", "tcx/polar_v800_run.tcx"])
    func unrelated(file: String) throws {
        let matcher = CourseMatcher(run: try Courses.read(file))
        #expect(matcher.match(course: Self.course) == nil)
        #expect(matcher.evaluate(course: Self.course) == .failure(.startNotReached(matchDistanceMeters: 30)))
    }
}
