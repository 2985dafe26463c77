import Foundation
import Testing

@testable import RunnectKit

/// The result types: ranking several matches, their JSON, the messages of a mismatch.
@Suite("Matching: results")
struct CourseMatchingResultTests {
    static func match(coverage: Double, meters: Double) -> CourseMatch {
        CourseMatch(
            coverage: coverage, courseDistanceMeters: meters, courseTimeSeconds: 600,
            coursePaceSecondsPerKilometer: 600 / (meters / 1000), startTime: Date(timeIntervalSince1970: 0),
            finishTime: Date(timeIntervalSince1970: 600), runDistanceBeforeStartMeters: 0,
            runDistanceOnCourseMeters: meters, runDistanceAfterFinishMeters: 0, startOffsetMeters: 1,
            finishOffsetMeters: 2)
    }

    @Test("the best match covers the most course length, then the largest share of its course")
    func ranking() {
        let longPartial = Self.match(coverage: 0.92, meters: 5000)  // 4600 m covered
        let shortWhole = Self.match(coverage: 1, meters: 4000)  // 4000 m
        let sameLengthMoreShare = Self.match(coverage: 1, meters: 4600)  // 4600 m, 100 %
        #expect(CourseMatch.ranksBelow(shortWhole, longPartial))
        #expect(!CourseMatch.ranksBelow(longPartial, shortWhole))
        #expect(CourseMatch.ranksBelow(longPartial, sameLengthMoreShare))
        #expect(!CourseMatch.ranksBelow(longPartial, longPartial))
        let best = [shortWhole, longPartial, sameLengthMoreShare].max(by: CourseMatch.ranksBelow)
        #expect(best == sameLengthMoreShare)
    }

    @Test("ranking real matches: a run of a 2 km course also follows its first kilometre; the 2 km course wins")
    func rankingRealMatches() throws {
        let course = MatchingTrackBuilder.course(legs: [(90, 2000)])
        let firstKilometre = MatchingTrackBuilder.course(legs: [(90, 1000)])
        let matcher = CourseMatcher(run: MatchingTrackBuilder.activity(MatchingTrackBuilder.run(along: course)))
        let whole = try #require(matcher.match(course: course))
        let part = try #require(matcher.match(course: firstKilometre))
        #expect(abs(part.courseTimeSeconds - 1000 / 3) < 1e-3)
        #expect(CourseMatch.ranksBelow(part, whole))
    }

    @Test("JSON keys say their units; a match survives the round trip")
    func json() throws {
        let match = Self.match(coverage: 0.95, meters: 5000)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(match), as: UTF8.self)
        for key in [
            "\"coverage\"", "\"course_distance_m\"", "\"course_time_s\"", "\"course_pace_s_per_km\"",
            "\"start_time\"", "\"finish_time\"", "\"run_before_start_m\"", "\"run_on_course_m\"",
            "\"run_after_finish_m\"", "\"start_offset_m\"", "\"finish_offset_m\"",
        ] {
            #expect(text.contains(key), "\(key) in \(text)")
        }
        #expect(try JSONDecoder().decode(CourseMatch.self, from: encoder.encode(match)) == match)
        let options = String(decoding: try encoder.encode(CourseMatchOptions()), as: UTF8.self)
        #expect(options == #"{"match_distance_m":30,"minimum_coverage":0.9}"#)
    }

    @Test(
        "a mismatch reads as a reason",
        arguments: [
            (
                CourseMismatch.startNotReached(matchDistanceMeters: 30),
                "the run never comes within 30 m of the course's start"
            ),
            (
                .finishNotReached(matchDistanceMeters: 12.5),
                "the run never comes within 12.5 m of the course's finish after following it"
            ),
            (
                .insufficientCoverage(coverage: 0.8999, required: 0.9, matchDistanceMeters: 30),
                "only 89% of the course lies within 30 m of the run, in order (90% needed)"
            ),
            (.wrongDirection, "the run follows the course the other way round"),
            (.finishBeforeStart, "the run passes the course's finish only before its start"),
            (.runHasNoTimes, "the run has no timestamps, so it gives no course time"),
        ])
    func descriptions(mismatch: CourseMismatch, text: String) {
        #expect(mismatch.description == text)
    }
}
