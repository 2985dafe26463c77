import Dispatch
import Foundation

/// A value computed on a thread of its own (a serial dispatch queue of its own, whose work runs on
/// an overcommitting thread: never on the global queues, which on Linux are the threads of Swift's
/// cooperative pool) from the moment it is made, awaited when it is needed: how the next batch is read and drafted
/// while one is stored (``DraftPipeline``, a copy), and how blocking work (opening a SQLite file)
/// stays off the pool.
package final class Prefetch<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Value, any Error>?
    private var waiting: [CheckedContinuation<Value, any Error>] = []

    /// Starts `compute` on a queue of its own.
    package init(_ compute: @escaping @Sendable () throws -> Value) {
        DispatchQueue(label: "runnect.prefetch").async {
            let result = Result { try compute() }
            let waiting = self.lock.withLock {
                self.result = result
                defer { self.waiting = [] }
                return self.waiting
            }
            for continuation in waiting { continuation.resume(with: result) }
        }
    }

    /// The value, once computed (as often as asked); throws what `compute` threw.
    package func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let done = lock.withLock { () -> Result<Value, any Error>? in
                if let result { return result }
                waiting.append(continuation)
                return nil
            }
            if let done { continuation.resume(with: done) }
        }
    }

    /// Runs `work` on a thread of its own and returns what it returns.
    package static func run(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await Prefetch(work).value()
    }
}
