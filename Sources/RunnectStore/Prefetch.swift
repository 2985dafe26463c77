import Dispatch

/// A value computed on another thread from the moment it is made, waited for when it is needed:
/// how the next batch is read and drafted while one is stored (``DraftPipeline``, a copy).
package final class Prefetch<Value: Sendable>: @unchecked Sendable {
    private var result: Result<Value, any Error>?
    private let done = DispatchSemaphore(value: 0)

    /// Starts `compute` on a global queue.
    package init(_ compute: @escaping @Sendable () throws -> Value) {
        DispatchQueue.global().async {
            self.result = Result { try compute() }
            self.done.signal()
        }
    }

    /// Waits for the value (as often as asked); throws what `compute` threw.
    package func value() throws -> Value {
        done.wait()
        done.signal()
        return try result!.get()
    }
}
