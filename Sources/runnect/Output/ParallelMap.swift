import Dispatch
import Foundation

/// `map` on up to `jobs` threads, results in input order.
enum ParallelMap {
    /// Calls `transform` on every element, `jobs` at a time, each element on whichever thread is
    /// free next; returns the results in the elements' order. One job runs on this thread alone.
    static func map<Element: Sendable, Result: Sendable>(
        _ elements: [Element], jobs: Int, _ transform: @escaping @Sendable (Element) -> Result
    ) -> [Result] {
        guard jobs > 1, elements.count > 1 else { return elements.map(transform) }
        let results = Results<Result>(count: elements.count)
        DispatchQueue.concurrentPerform(iterations: min(jobs, elements.count)) { _ in
            while let index = results.claim() {
                results.store(transform(elements[index]), at: index)
            }
        }
        return results.values()
    }

    /// The slots of the results and the next element to take, behind one lock.
    private final class Results<Result: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [Result?]
        private var next = 0

        init(count: Int) {
            slots = Array(repeating: nil, count: count)
        }

        func claim() -> Int? {
            lock.withLock {
                guard next < slots.count else { return nil }
                defer { next += 1 }
                return next
            }
        }

        func store(_ result: Result, at index: Int) {
            lock.withLock { slots[index] = result }
        }

        func values() -> [Result] {
            lock.withLock { slots.map { $0! } }
        }
    }
}
