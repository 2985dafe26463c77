import Foundation

/// The estimates (`runnect_search_estimate`: since schema version 16, the count of the entries
/// the caller may read holding a token, up to one past ``PostgresSearchPlans/topTierRows``) a
/// backend has asked for, by token, each with the table's size (`reltuples`) when it was asked:
/// kept while the size is the same, which an `ANALYZE` changes. Shared by the backend's
/// connections, which connect as one runner.
///
/// Why: the estimate cost every one-keyword relevance search 0.4 ms on the server and a round
/// trip (at a million courses, the statement log of 2026-11-27), for a figure that changed only
/// with the table's statistics. An estimate only chooses which read comes first: a stale one
/// changes no answer.
final class PostgresSearchEstimates: @unchecked Sendable {
    /// An estimate, or none (null: a token the statistics know no frequency of).
    struct Entry {
        var tuples: Int
        var estimate: Double?
    }

    /// The most tokens kept; past it, the oldest ones are forgotten.
    static let capacity = 4_096

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var order: [String] = []

    /// The estimate kept for `token` with the table at `tuples` rows: `.some(nil)` when the
    /// statistics knew no frequency of it; nil when none is kept for that size.
    func estimate(of token: String, tuples: Int) -> Double?? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[token], entry.tuples == tuples else { return nil }
        return .some(entry.estimate)
    }

    /// Keeps `estimate` for `token` with the table at `tuples` rows.
    func keep(_ estimate: Double?, of token: String, tuples: Int) {
        lock.lock()
        defer { lock.unlock() }
        if entries.updateValue(Entry(tuples: tuples, estimate: estimate), forKey: token) == nil {
            order.append(token)
            if order.count > Self.capacity {
                let forgotten = order.prefix(order.count / 2)
                for token in forgotten { entries[token] = nil }
                order.removeFirst(forgotten.count)
            }
        }
    }
}
