import Foundation

/// The runners whose tokens were just checked, by id, for a few seconds: a runner's requests then
/// skip the store's read of who they are (a name never changes; a withdrawal through this server
/// is forgotten at once, one through another process within ``freshness``).
final class KnownRunners: @unchecked Sendable {
    /// How long a runner is taken as known without asking the store again.
    static let freshness: Duration = .seconds(2)
    /// The most runners kept; past it the oldest half goes.
    static let capacity = 10_000

    private let lock = NSLock()
    private var known: [Int64: (name: String, checked: ContinuousClock.Instant)] = [:]

    /// The name of runner `id` if they were found active in the last ``freshness``.
    func name(of id: Int64) -> String? {
        let now = ContinuousClock.now
        return lock.withLock {
            guard let entry = known[id], now - entry.checked < Self.freshness else { return nil }
            return entry.name
        }
    }

    /// Notes runner `id`, named `name`, as found active now.
    func remember(_ id: Int64, name: String) {
        let now = ContinuousClock.now
        lock.withLock {
            if known.count >= Self.capacity {
                let oldest = known.sorted { $0.value.checked < $1.value.checked }.prefix(Self.capacity / 2)
                for (id, _) in oldest { known[id] = nil }
            }
            known[id] = (name, now)
        }
    }

    /// Forgets runner `id` (they withdrew).
    func forget(_ id: Int64) {
        _ = lock.withLock { known.removeValue(forKey: id) }
    }
}
