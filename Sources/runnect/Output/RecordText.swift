import Foundation
import RunnectKit
import RunnectStore

/// Records as a person reads them.
enum RecordText {
    /// `record:3  Morning run  10.02 km  1:01:40  on course #7 반포 10K  (course 58:10, 5'49"/km)`:
    /// a record is `record:R`, a course `#C`. `unit`: kilometres or miles.
    static func line(_ record: RunRecord, personalBest: Bool = false, unit: DistanceUnit = .kilometers) -> String {
        var course = "course \(clock(record.courseTimeSeconds))"
        if let pace = record.coursePaceSecondsPerKilometer {
            course += ", " + RunnerFormat.pace(secondsPerKilometer: pace, per: unit) + "/" + unit.symbol
        }
        if personalBest { course += ", personal best" }
        return [
            RecordID.label(record.id), record.title.forTerminal,
            RunnerFormat.distance(meters: record.stats.distanceMeters, in: unit),
            RunnerFormat.duration(seconds: record.stats.elapsedTimeSeconds),
            "on course #\(record.courseID) \(courseName(record))", "(\(course))",
        ].joined(separator: "  ")
    }

    /// The course's title; a course the runner cannot see is not named.
    static func courseName(_ record: RunRecord) -> String {
        if record.isCourseDeleted { return "(deleted by its owner)" }
        return record.courseTitle?.forTerminal ?? "(no longer shared)"
    }

    /// A course time as a runner says it: `16:40` under an hour, `1:02:03` from one.
    static func clock(_ seconds: Double) -> String {
        guard seconds >= 0, seconds < 3599.5 else { return RunnerFormat.duration(seconds: seconds) }
        let whole = Int(seconds.rounded())
        return "\(whole / 60):" + (whole % 60 < 10 ? "0" : "") + "\(whole % 60)"
    }

    /// The head of `runnect records --course`: attempts, newest, bests, trend.
    static func summary(_ summary: CourseRecordSummary, course: Course) -> String {
        var lines = ["course #\(course.id) \(course.title.forTerminal): \(summary.attempts) attempt(s)"]
        func row(_ label: String, _ record: RunRecord?) {
            guard let record else { return }
            let date = record.stats.startTime.map(RunnerFormat.timestamp) ?? "?"
            lines.append(
                "  " + label.padding(toLength: 16, withPad: " ", startingAt: 0)
                    + "\(clock(record.courseTimeSeconds))  \(RecordID.label(record.id)), \(date)")
        }
        row("Most recent", summary.mostRecent)
        row("Personal best", summary.personalBest)
        row("Best, 365 days", summary.bestOfLastYear)
        if let trend = summary.trendSecondsPerAttempt {
            let times = summary.recentCourseTimes.map(clock).joined(separator: " → ")
            let direction = trend < -0.5 ? "faster" : trend > 0.5 ? "slower" : "steady"
            lines.append(
                "  " + "Trend".padding(toLength: 16, withPad: " ", startingAt: 0)
                    + "\(times) (\(direction), \(String(format: "%+.0f", trend)) s per attempt)")
        }
        return lines.joined(separator: "\n")
    }
}
