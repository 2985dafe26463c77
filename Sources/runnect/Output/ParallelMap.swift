import Dispatch
import Foundation

/// Work on up to `jobs` threads, results handed over in input order.
enum ParallelMap {
    /// Calls `transform` on every element, `jobs` at a time, each element on whichever worker is
    /// free next, and `consume` on this thread with each result in the elements' order, as soon
    /// as it and every one before it are done. Workers run at most `lookahead` elements ahead of
    /// the one being consumed, so memory holds that many results at most. One job runs on this
    /// thread alone.
    static func forEachInOrder<Element: Sendable, Result: Sendable>(
        _ elements: [Element], jobs: Int, lookahead: Int,
        _ transform: @escaping @Sendable (Element) -> Result, consume: (Result) -> Void
    ) {
        guard jobs > 1, elements.count > 1 else {
            for element in elements { consume(transform(element)) }
            return
        }
        let results = OrderedResults<Result>(count: elements.count, lookahead: max(lookahead, jobs))
        let workers = DispatchGroup()
        // jobs − 1 workers, and this thread: it hands over every result that is ready in order,
        // and works on the next element itself while the one it waits for is not.
        for _ in 0..<min(jobs - 1, elements.count) {
            DispatchQueue.global().async(group: workers) {
                while let index = results.claim(waiting: true) {
                    results.store(transform(elements[index]), at: index)
                }
            }
        }
        for index in elements.indices {
            while !results.isReady(index), let mine = results.claim(waiting: false) {
                results.store(transform(elements[mine]), at: mine)
            }
            consume(results.take(index))
        }
        workers.wait()
    }

    /// The results not yet consumed, the next element to take and the next to hand over, behind
    /// one condition.
    private final class OrderedResults<Result: Sendable>: @unchecked Sendable {
        private let condition = NSCondition()
        private var slots: [Result?]
        private var next = 0
        private var consumed = 0
        private let lookahead: Int

        init(count: Int, lookahead: Int) {
            slots = Array(repeating: nil, count: count)
            self.lookahead = lookahead
        }

        /// The next element to work on, waiting while the work is `lookahead` ahead of what was
        /// handed over (or, not `waiting`, giving `nil` then); `nil` when every element is taken.
        func claim(waiting: Bool) -> Int? {
            condition.lock()
            defer { condition.unlock() }
            while next < slots.count && next >= consumed + lookahead {
                guard waiting else { return nil }
                condition.wait()
            }
            guard next < slots.count else { return nil }
            defer { next += 1 }
            return next
        }

        func isReady(_ index: Int) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            return slots[index] != nil
        }

        func store(_ result: Result, at index: Int) {
            condition.lock()
            slots[index] = result
            condition.broadcast()
            condition.unlock()
        }

        /// The result at `index`, waiting until it is there; frees its slot.
        func take(_ index: Int) -> Result {
            condition.lock()
            defer { condition.unlock() }
            while slots[index] == nil { condition.wait() }
            let result = slots[index]!
            slots[index] = nil
            consumed = index + 1
            condition.broadcast()
            return result
        }
    }
}
