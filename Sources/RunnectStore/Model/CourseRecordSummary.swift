import Foundation

/// The head of a personal leaderboard: the user's attempts at one course.
public struct CourseRecordSummary: Sendable, Equatable {
    /// The course.
    public var courseID: Int64
    /// Records of the user on it.
    public var attempts: Int
    /// The newest (by start time).
    public var mostRecent: RunRecord?
    /// The fastest course time of all.
    public var personalBest: RunRecord?
    /// The fastest course time of the last 365 days (by the runs' start times); `nil` when none
    /// was run in them.
    public var bestOfLastYear: RunRecord?
    /// Course times of the last attempts (at most ``trendAttempts``), oldest first.
    public var recentCourseTimes: [Double]
    /// Seconds per attempt the course time changes by over ``recentCourseTimes`` (a least-squares
    /// line; negative is getting faster); `nil` with fewer than two attempts.
    public var trendSecondsPerAttempt: Double?

    /// How many attempts the trend looks at.
    public static let trendAttempts = 5

    /// A summary.
    public init(
        courseID: Int64, attempts: Int, mostRecent: RunRecord?, personalBest: RunRecord?,
        bestOfLastYear: RunRecord?, recentCourseTimes: [Double]
    ) {
        self.courseID = courseID
        self.attempts = attempts
        self.mostRecent = mostRecent
        self.personalBest = personalBest
        self.bestOfLastYear = bestOfLastYear
        self.recentCourseTimes = recentCourseTimes
        trendSecondsPerAttempt = Self.slope(recentCourseTimes)
    }

    /// The least-squares slope of `values` against 0, 1, 2, …
    static func slope(_ values: [Double]) -> Double? {
        guard values.count >= 2 else { return nil }
        let n = Double(values.count)
        let meanX = (n - 1) / 2
        let meanY = values.reduce(0, +) / n
        var numerator = 0.0
        var denominator = 0.0
        for (index, value) in values.enumerated() {
            let dx = Double(index) - meanX
            numerator += dx * (value - meanY)
            denominator += dx * dx
        }
        return numerator / denominator
    }
}
