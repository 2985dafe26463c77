import Dispatch
import Foundation

/// Drafts batches of items on several threads while the calling thread stores them: the batch
/// after the one being stored is drafted meanwhile, so reading and writing overlap and memory
/// holds two batches at most.
///
/// `package`: the benchmarks build their stores through it too.
package enum DraftPipeline {
    /// Runs `draft` over every item of `batches` on `jobs` threads and hands each batch's drafts,
    /// in item order, to `store` on the calling thread, batch after batch.
    package static func run<Item: Sendable>(
        _ batches: [[Item]], jobs: Int,
        draft: @escaping @Sendable (Item) -> Result<CourseDraft, any Error>,
        store: ([Item], [Result<CourseDraft, any Error>]) throws -> Void
    ) throws {
        func start(_ batch: [Item]) -> DraftedBatch {
            let result = DraftedBatch(count: batch.count)
            let jobs = max(1, min(jobs, batch.count))
            DispatchQueue.global().async {
                DispatchQueue.concurrentPerform(iterations: jobs) { stripe in
                    for index in stride(from: stripe, to: batch.count, by: jobs) {
                        result.set(index, draft(batch[index]))
                    }
                }
                result.finish()
            }
            return result
        }
        var pending = batches.first.map(start)
        for index in batches.indices {
            let drafted = pending!.wait()
            pending = index + 1 < batches.count ? start(batches[index + 1]) : nil
            do {
                try store(batches[index], drafted)
            } catch {
                // Let the batch being drafted finish before its items go away.
                _ = pending?.wait()
                throw error
            }
        }
    }
}

/// The drafts of one batch, filled in by the drafting threads.
private final class DraftedBatch: @unchecked Sendable {
    private var slots: [Result<CourseDraft, any Error>?]
    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ value: Result<CourseDraft, any Error>) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    func finish() {
        done.signal()
    }

    /// Blocks until every slot is filled.
    func wait() -> [Result<CourseDraft, any Error>] {
        done.wait()
        lock.lock()
        defer { lock.unlock() }
        return slots.map { $0! }
    }
}
