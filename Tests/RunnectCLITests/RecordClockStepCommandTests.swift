import Foundation
import RunnectTestSupport
import Testing

/// `runnect import` of the corpus run whose clock jumps to 2085 (issue 34, item 12): its record
/// keeps the time of its own records, not 64 years.
@Suite("runnect import: a record of a clock that jumps forward (end to end)")
struct RecordClockStepCommandTests {
    @Test(
        "the Strava Android FIT ending in 2085: a course time within the records' own time and the device's",
        .sharedCorpus)
    func stravaAndroidRecord() throws {
        let file = "edge/strava_android_app_bad_local_msg.fit"
        let scratch = try StoreCommandTests.Scratch()
        let imported = try scratch.objects(["import", SharedCorpus.url(file).path])
        let record = try #require(imported.first, "\(imported)")
        let elapsed = try SharedCorpus.figure(file, "duration_s") - SharedCorpus.figure(file, "max_time_gap_s")
        #expect(record["elapsed_time_s"] as? Double == elapsed, "\(record)")
        let courseTime = try #require(record["course_time_s"] as? Double, "\(record)")
        #expect(courseTime > 0 && courseTime <= elapsed, "\(record)")
        #expect(courseTime <= (try SharedCorpus.sessionFigure(file, "total_timer_time_s")))
        let listed = try #require(try scratch.objects(["records"]).first)
        #expect(listed["course_time_s"] as? Double == courseTime)
    }
}
