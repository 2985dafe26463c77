import Dispatch
import Foundation

/// Two pieces of work at once, one on a thread of its own and one on the caller's: what a large
/// GPX file's read (its two parts) and the stats pass of one long segment (its legs, its bounds)
/// use the second core for. Below ``minimumPoints`` points a thread costs more than it gives back.
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

    private final class Box<Value>: @unchecked Sendable {
        var value: Value?
    }

    private struct UncheckedSendable<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}
