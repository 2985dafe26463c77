import Foundation

/// Runs an async body to its end on the calling thread: how the store's async transaction code
/// runs inside one of GRDB's database closures, whose connection may be used on its own queue
/// only.
///
/// The body runs in a task that prefers this executor, so every nonisolated step of it (the
/// store's logic and SQLite's primitives, which never suspend) runs on the thread that waits in
/// ``run(_:)``: GRDB's writer or reader queue, never the cooperative pool. A step that does
/// suspend (on another actor, say) leaves the thread waiting until the body is given it back.
final class ThreadBoundExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    private init() {}

    /// Runs `body` on this thread and returns what it returns.
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let executor = ThreadBoundExecutor()
        let outcome = Outcome<T>()
        Task(executorPreference: executor) {
            do {
                outcome.value = .success(try await body())
            } catch {
                outcome.value = .failure(error)
            }
            executor.finish()
        }
        executor.drain()
        return try outcome.value!.get()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    /// Runs the jobs given to the executor until the body has finished.
    private func drain() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    private func finish() {
        condition.withLock {
            finished = true
            condition.signal()
        }
    }

    /// The body's result, written by its task before ``finish()`` and read after ``drain()``.
    private final class Outcome<T>: @unchecked Sendable {
        var value: Result<T, any Error>?
    }
}
