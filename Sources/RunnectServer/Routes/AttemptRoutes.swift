import Foundation
import Hummingbird
import RunnectStore

/// `GET /api/course/{publicCourseId}/attempts` (beyond the app's server): the signed-in
/// runner's own attempts at a course (a shared one, or one of their own), newest first, with
/// their bests and the trend of their last five course times. A time measured from a track
/// (`runnect import`, `POST /api/record/run`) and a time the app reported (`POST /api/record`)
/// are told apart: each attempt says which, and each kind has its own best.
struct AttemptRoutes: Sendable {
    /// One attempt: a record of the runner on the course.
    struct Attempt: Encodable, Sendable {
        var recordId: Int64
        var title: String
        var createdAt: String
        /// The course time, `HH:MM:SS`, and in seconds.
        var time: String
        var courseTimeSeconds: Double
        /// The course time per km, `HH:MM:SS` (the app's own pace for a reported time).
        var pace: String
        var measured: Bool
        var isPersonalBest: Bool
    }
    struct Trend: Encodable, Sendable {
        /// The last course times, oldest first (`HH:MM:SS`, and in seconds).
        var recentTimes: [String]
        var recentSeconds: [Double]
        /// Seconds an attempt the course time changes by (least squares; negative is faster);
        /// `null` with fewer than two attempts.
        @Nullable var secondsPerAttempt: Double?
        /// `faster`, `slower` or `steady` (within a second an attempt); `null` with fewer than two.
        @Nullable var direction: String?
    }
    struct Attempts: Encodable, Sendable {
        var courseId: Int64
        var courseTitle: String
        var attemptCount: Int
        @Nullable var personalBest: Attempt?
        @Nullable var bestOfLastYear: Attempt?
        @Nullable var bestMeasured: Attempt?
        @Nullable var bestReported: Attempt?
        var trend: Trend
        var attempts: [Attempt]
    }

    /// The most attempts listed (the bests and the trend count them all).
    static let maximumListed = 1000

    let services: ServerServices

    func add(to router: Router<RunnectRequestContext>) {
        router.get("api/course/:courseId/attempts") { request, context in
            let (_, store) = try await services.runner(of: request, context: context)
            let id = try PathID.value(context, "courseId")
            let course = try await store.course(id: id)
            let summary = try await store.recordSummary(course: id)
            let records = try await store.records(course: id, sort: .date, page: Page(limit: Self.maximumListed))
            let marks = try await store.recordMarks(ids: records.map(\.id))
            let zone = services.configuration.timeZone
            let best = summary.personalBest?.id
            func attempt(_ record: RunRecord) -> Attempt {
                let mark = marks[record.id]
                let pace = mark?.reportedPaceSeconds ?? record.coursePaceSecondsPerKilometer ?? 0
                return Attempt(
                    recordId: record.id, title: record.title,
                    createdAt: AppTime.recordDate(record.createdAt, timeZone: zone),
                    time: AppTime.text(seconds: record.courseTimeSeconds), courseTimeSeconds: record.courseTimeSeconds,
                    pace: AppTime.text(seconds: pace), measured: !(mark?.isReported ?? false),
                    isPersonalBest: record.id == best)
            }
            // Newest first by when each was run: a reported time has no start but its report's.
            func started(_ record: RunRecord) -> Date { record.stats.startTime ?? record.createdAt }
            let listed = records.sorted { (started($0), $0.id) > (started($1), $1.id) }.map(attempt)
            func fastest(measured: Bool) -> Attempt? {
                listed.filter { $0.measured == measured }.min {
                    ($0.courseTimeSeconds, $0.recordId) < ($1.courseTimeSeconds, $1.recordId)
                }
            }
            let slope = summary.trendSecondsPerAttempt
            return APIResponse(
                message: "기록 조회에 성공했습니다.",
                data: Attempts(
                    courseId: id, courseTitle: course.title, attemptCount: summary.attempts,
                    personalBest: summary.personalBest.map(attempt),
                    bestOfLastYear: summary.bestOfLastYear.map(attempt),
                    bestMeasured: fastest(measured: true), bestReported: fastest(measured: false),
                    trend: Trend(
                        recentTimes: summary.recentCourseTimes.map { AppTime.text(seconds: $0) },
                        recentSeconds: summary.recentCourseTimes, secondsPerAttempt: slope,
                        direction: slope.map { $0 < -1 ? "faster" : $0 > 1 ? "slower" : "steady" }),
                    attempts: listed))
        }
    }
}
