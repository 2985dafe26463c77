import Foundation
import RunnectKit
import RunnectStore

/// One record as `--json` prints it: every key always present, `null` where a figure is missing.
struct RecordReport: Encodable {
    let record: RunRecord
    /// Import only: whether the record is the runner's best on its course, and whether the course
    /// was made from the run.
    var isPersonalBest: Bool?
    var isNewCourse: Bool?

    init(_ record: RunRecord) {
        self.record = record
    }

    init(_ recorded: RecordedRun) {
        record = recorded.record
        isPersonalBest = recorded.isPersonalBest
        isNewCourse = recorded.isNewCourse
    }

    private enum CodingKeys: String, CodingKey {
        case id, owner, title, courseID = "course_id", courseTitle = "course_title"
        case isCourseDeleted = "course_deleted", startTime = "start_time"
        case distance = "distance_m", elapsed = "elapsed_time_s", moving = "moving_time_s"
        case deviceTimer = "device_timer_time_s", averagePace = "avg_pace_s_per_km"
        case courseTime = "course_time_s", courseDistance = "course_distance_m", coursePace = "course_pace_s_per_km"
        case coverage = "match_coverage", averageHeartRate = "avg_heart_rate_bpm", maxHeartRate = "max_heart_rate_bpm"
        case sourceFormat = "source_format", contentHash = "content_hash"
        case isPersonalBest = "is_personal_best", isNewCourse = "is_new_course"
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        let stats = record.stats
        // Optionals through encode(_:forKey:): a missing value is written as null, never left out.
        try c.encode(record.id, forKey: .id)
        try c.encode(record.owner, forKey: .owner)
        try c.encode(record.title, forKey: .title)
        try c.encode(record.courseID, forKey: .courseID)
        try c.encode(record.courseTitle, forKey: .courseTitle)
        try c.encode(record.isCourseDeleted, forKey: .isCourseDeleted)
        try c.encode(stats.startTime.map(RunnerFormat.timestamp), forKey: .startTime)
        try c.encode(JSONResolution.meters(stats.distanceMeters), forKey: .distance)
        try c.encode(JSONResolution.seconds(stats.elapsedTimeSeconds), forKey: .elapsed)
        try c.encode(JSONResolution.seconds(stats.movingTimeSeconds), forKey: .moving)
        try c.encode(JSONResolution.seconds(record.deviceTimerSeconds), forKey: .deviceTimer)
        try c.encode(JSONResolution.pace(stats.averagePaceSecondsPerKilometer), forKey: .averagePace)
        try c.encode(JSONResolution.seconds(record.courseTimeSeconds), forKey: .courseTime)
        try c.encode(JSONResolution.meters(record.courseDistanceMeters), forKey: .courseDistance)
        try c.encode(JSONResolution.pace(record.coursePaceSecondsPerKilometer), forKey: .coursePace)
        try c.encode((record.matchCoverage * 10_000).rounded() / 10_000, forKey: .coverage)
        try c.encode(JSONResolution.rate(stats.averageHeartRateBPM), forKey: .averageHeartRate)
        try c.encode(JSONResolution.rate(stats.maxHeartRateBPM), forKey: .maxHeartRate)
        try c.encode(record.sourceFormat, forKey: .sourceFormat)
        try c.encode(record.contentHash, forKey: .contentHash)
        try c.encodeIfPresent(isPersonalBest, forKey: .isPersonalBest)
        try c.encodeIfPresent(isNewCourse, forKey: .isNewCourse)
    }

    func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
