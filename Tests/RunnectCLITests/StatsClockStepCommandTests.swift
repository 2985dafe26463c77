import Foundation
import RunnectTestSupport
import Testing

/// `runnect stats` on a clock that jumps forward by decades (issue 34, item 12): the leg across
/// the jump counts as no time, and the warning names the point as the one for time going back.
@Suite("runnect stats: a clock that jumps forward (end to end)")
struct StatsClockStepCommandTests {
    @Test("the last fix stamped in 2085: the run's own elapsed time, and a warning naming the point")
    func lastFixIn2085() throws {
        var times = StatsTimeOrderCommandTests.times(20)
        times[19] = "2085-12-21T16:46:58Z"
        let gpx = StatsTimeOrderCommandTests.gpx(times)
        let json = try RunnectProcess.run(["stats", "--json", "--splits", "-"], stdin: gpx)
        #expect(json.status == 0, "\(json.stderr)")
        let object = try StatsTimeOrderCommandTests.object(json)
        // 18 legs of 3 s; the 19th, into 2085, counts as no time.
        #expect(object["elapsed_time_s"] as? Double == 54)
        #expect(object["moving_time_s"] as? Double == 54)
        #expect(object["end_time"] as? String == "2085-12-21T16:46:58Z")
        let warning =
            "segment 1, point 20: the time jumps ahead 22538 day(s) 10:46:04, from 2024-04-07T06:00:54Z "
            + "(segment 1, point 19) to 2085-12-21T16:46:58Z, more than any pause can last (a year); "
            + "that leg counts as no time"
        #expect(object["warnings"] as? [String] == [warning])
        #expect(json.stderr == "runnect: warning: -: \(warning)\n")
        let splits = try #require(object["splits"] as? [[String: Any]])
        #expect(splits.reduce(0) { $0 + ($1["elapsed_time_s"] as? Double ?? 0) } == 54)

        let text = try RunnectProcess.run(["stats", "-"], stdin: gpx)
        #expect(text.status == 0)
        #expect(text.stdout.contains("Time         0:00:54 elapsed · 0:00:54 moving"), "\(text.stdout)")
        #expect(text.stderr == "runnect: warning: -: \(warning)\n")
    }

    @Test(
        "the Strava Android FIT ending in 2085: the time of its records (reference span less its gap), within the device's",
        .sharedCorpus)
    func stravaAndroid() throws {
        let file = "edge/strava_android_app_bad_local_msg.fit"
        let path = SharedCorpus.url(file).path
        let result = try RunnectProcess.run(["stats", "--json", path])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try StatsTimeOrderCommandTests.object(result)
        let elapsed = try #require(object["elapsed_time_s"] as? Double)
        let expected = try SharedCorpus.figure(file, "duration_s") - SharedCorpus.figure(file, "max_time_gap_s")
        #expect(elapsed == expected)
        #expect(elapsed <= (try SharedCorpus.sessionFigure(file, "total_timer_time_s")))
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("the time jumps ahead") }
        #expect(warnings.count == 1, "\(result.stderr)")
        #expect(warnings.first?.hasPrefix("runnect: warning: \(path): segment 1, point 473: ") == true, "\(warnings)")
    }
}
