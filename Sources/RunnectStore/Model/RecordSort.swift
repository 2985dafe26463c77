/// Orders of `runnect records`.
public enum RecordSort: String, Sendable, CaseIterable {
    /// Newest run first (by its start time).
    case date
    /// Fastest course time first: a personal leaderboard.
    case time
}
