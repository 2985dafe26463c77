import Foundation

/// What an open store is doing, for a server's metrics: its transactions in flight, how many it
/// can run at once, and each one's time once it ends. Shared by every
/// ``CourseStore/acting(as:)`` handle of one open store.
public final class StoreActivity: @unchecked Sendable {
    /// A transaction's kind: a snapshot read or a write.
    public enum Kind: String, Sendable, CaseIterable {
        case read, write
    }

    /// One transaction, once it ended.
    public struct Transaction: Sendable {
        public var kind: Kind
        /// From asking for a connection to the end: waiting for one included.
        public var seconds: Double
        /// Whether it ended with an error (the caller's refusals included).
        public var failed: Bool
    }

    private let lock = NSLock()
    private var handler: (@Sendable (Transaction) -> Void)?
    private var inFlight: [Kind: Int] = [.read: 0, .write: 0]

    /// How many transactions the store runs at once: SQLite's readers and its one writer, or the
    /// PostgreSQL client's connections. More wait for one.
    public let connectionLimit: Int

    init(connectionLimit: Int) {
        self.connectionLimit = connectionLimit
    }

    /// Sends every transaction that ends from now on to `handler` (the last one set).
    public func onTransaction(_ handler: @escaping @Sendable (Transaction) -> Void) {
        lock.withLock { self.handler = handler }
    }

    /// The transactions of `kind` begun and not yet ended (waiting for a connection included).
    public func inFlight(_ kind: Kind) -> Int {
        lock.withLock { inFlight[kind] ?? 0 }
    }

    /// Runs `body` as a transaction of `kind`, counted while it runs and told when it ends.
    func measure<T>(_ kind: Kind, _ body: () async throws -> T) async throws -> T {
        let start = ContinuousClock.now
        lock.withLock { inFlight[kind, default: 0] += 1 }
        var failed = true
        defer {
            let elapsed = ContinuousClock.now - start
            let handler = lock.withLock {
                inFlight[kind, default: 0] -= 1
                return self.handler
            }
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            handler?(Transaction(kind: kind, seconds: seconds, failed: failed))
        }
        let result = try await body()
        failed = false
        return result
    }
}
