import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

/// The clock-step-forward rule on the shared corpus (issue 34, item 12): the one file whose clock
/// jumps to 2085 gets the time of its own records, and no other file's time changes. Figures come
/// from `reference.json` (fitdecode, gpxpy, ElementTree), not from our readers.
@Suite("A clock that jumps forward (shared corpus)", .sharedCorpus)
struct TimeOrderForwardStepCorpusTests {
    static let file = "edge/strava_android_app_bad_local_msg.fit"

    @Test(
        "Strava Android FIT ending in 2085: the records' own time, within the device's, and a warning naming the point")
    func stravaAndroid2085() throws {
        let reference = try #require(SharedCorpus.reference[Self.file])
        let activity = try ActivityReader.read(path: SharedCorpus.url(Self.file).path)
        let stats = activity.stats(options: StatsOptions(includeSplits: true))
        // The reference's span less its one gap of more than a day: the time the records cover.
        let span = try SharedCorpus.figure(Self.file, "duration_s")
        let gap = try SharedCorpus.figure(Self.file, "max_time_gap_s")
        #expect(reference["time_gaps_over_1day"] as? Int == 1)
        let elapsed = try #require(stats.elapsedTimeSeconds)
        #expect(elapsed == span - gap)
        // The records are the first 0.93 km of an 11.27 km session the decoders stop inside: their
        // time lies within the device's own.
        #expect(elapsed <= (try SharedCorpus.sessionFigure(Self.file, "total_elapsed_time_s")))
        #expect(elapsed <= (try SharedCorpus.sessionFigure(Self.file, "total_timer_time_s")))
        #expect(try #require(stats.movingTimeSeconds) <= elapsed)
        #expect(
            abs(try #require(stats.averagePaceSecondsPerKilometer) - elapsed / (stats.distanceMeters / 1000)) < 1e-9)
        #expect(abs((stats.splits ?? []).reduce(0) { $0 + ($1.elapsedTimeSeconds ?? 0) } - elapsed) < 1e-6)
        // Start and end stay the file's own.
        #expect(stats.endTime.map(RunnerFormat.timestamp) == reference["end_time"] as? String)

        let points = try #require(reference["points"] as? Int)
        let jumps = activity.warnings.filter { $0.contains("the time jumps ahead") }
        #expect(jumps.count == 1, "\(activity.warnings)")
        let warning = try #require(jumps.first)
        #expect(warning.hasPrefix("segment 1, point \(points): the time jumps ahead "), "\(warning)")
        #expect(warning.contains("to \(try #require(reference["end_time"] as? String))"), "\(warning)")
        #expect(warning.hasSuffix("that leg counts as no time"), "\(warning)")

        // A record's course time (the run matched against its own path) is within it too.
        let match = try #require(CourseMatcher(run: activity).match(course: activity))
        #expect(match.courseTimeSeconds <= elapsed + 1e-6)
    }

    @Test(
        "Every other file: no step forward found, and the elapsed time is the reference's span where its times run forward"
    )
    func everyOtherFile() throws {
        var compared = 0
        for (file, reference) in SharedCorpus.reference.sorted(by: { $0.key < $1.key }) where file != Self.file {
            guard let activity = try? ActivityReader.read(path: SharedCorpus.url(file).path) else { continue }
            #expect(!activity.warnings.contains { $0.contains("the time jumps ahead") }, "\(file)")
            let stats = activity.stats()
            guard reference["non_monotonic_time_steps"] as? Int == 0,
                !activity.warnings.contains(where: { $0.contains("the time goes back") }),
                let span = SharedCorpus.double(reference["duration_s"]), let elapsed = stats.elapsedTimeSeconds
            else { continue }
            #expect(abs(elapsed - span) <= 0.001, "\(file): \(elapsed) s, reference \(span) s")
            compared += 1
        }
        #expect(compared >= 30)
    }
}
