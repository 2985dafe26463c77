import Dispatch
import Foundation

/// Two pieces of work at once, one on a thread of its own and one on the caller's: what a large
/// GPX file's read (its two parts) and the stats of a long course (its legs, its windowed speed,
/// its splits' elevations) use the second core for. Below ``minimumPoints`` points a thread costs
/// more than it gives back.
///
/// A new thread, not Dispatch's pool: the caller may itself be one of the pool's workers (files
/// read at once by `runnect stats --jobs N`), and waiting there for work queued behind it would
/// wait on the pool's width.
enum InParallel {
    static let minimumPoints = 50_000

    /// `first()` on another thread while `second()` runs on this one; both results.
    static func run<A, B>(_ first: @escaping () -> A, _ second: () -> B) -> (A, B) {
        let box = Box<A>()
        let done = DispatchSemaphore(value: 0)
        // The closure and its result cross threads once each, ordered by the semaphore.
        let work = UncheckedSendable(first)
        Thread {
            box.value = work.value()
            done.signal()
        }.start()
        let b = second()
        done.wait()
        return (box.value!, b)
    }

    /// `run(first, second)` when `parallel`, else both on this thread, `first()` first.
    static func run<A, B>(_ parallel: Bool, _ first: @escaping () -> A, _ second: () -> B) -> (A, B) {
        if parallel { return run(first, second) }
        let a = first()
        return (a, second())
    }

    /// `work()` started on another thread when `parallel`, for ``Pending/wait()`` to collect;
    /// otherwise it runs on the caller's thread when the result is asked for.
    static func start<A>(_ parallel: Bool, _ work: @escaping () -> A) -> Pending<A> {
        let pending = Pending(work, onAnotherThread: parallel)
        if parallel {
            let box = UncheckedSendable(pending)
            Thread { box.value.run() }.start()
        }
        return pending
    }

    /// The result of work ``start(_:_:)`` began: asked for once, by the thread that started it.
    final class Pending<Value>: @unchecked Sendable {
        private let work: () -> Value
        private let onAnotherThread: Bool
        // Written by the other thread before it signals, read by the caller after its wait.
        private var value: Value?
        private let done = DispatchSemaphore(value: 0)

        fileprivate init(_ work: @escaping () -> Value, onAnotherThread: Bool) {
            self.work = work
            self.onAnotherThread = onAnotherThread
        }

        /// The other thread's part.
        fileprivate func run() {
            value = work()
            done.signal()
        }

        /// The result: waits for the other thread, or does the work here if none was started.
        func wait() -> Value {
            guard onAnotherThread else { return work() }
            done.wait()
            return value!
        }
    }

    private final class Box<Value>: @unchecked Sendable {
        var value: Value?
    }

    private struct UncheckedSendable<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}
