import Dispatch
import Foundation

/// Drafts batches of items on threads of their own while the caller stores them: the batch
/// after the one being stored is drafted meanwhile, so reading and writing overlap and memory
/// holds two batches at most.
///
/// `package`: the benchmarks build their stores through it too.
package enum DraftPipeline {
    /// Runs `draft` over every item of `batches` on `jobs` threads and hands each batch's drafts,
    /// in item order, to `store`, batch after batch.
    package static func run<Item: Sendable>(
        _ batches: [[Item]], jobs: Int,
        draft: @escaping @Sendable (Item) -> Result<CourseDraft, any Error>,
        store: ([Item], [Result<CourseDraft, any Error>]) async throws -> Void
    ) async throws {
        func start(_ batch: [Item]) -> Prefetch<[Result<CourseDraft, any Error>]> {
            Prefetch { drafts(of: batch, jobs: jobs, draft) }
        }
        var pending = batches.first.map(start)
        for index in batches.indices {
            // Drafting never throws: a file that fails to draft is a failed result.
            let drafted = try await pending!.value()
            pending = index + 1 < batches.count ? start(batches[index + 1]) : nil
            do {
                try await store(batches[index], drafted)
            } catch {
                // Let the batch being drafted finish before its items go away.
                _ = try? await pending?.value()
                throw error
            }
        }
    }

    /// Runs `draft` over `batch` on `jobs` threads (the caller's among them) and returns the
    /// drafts in item order.
    package static func drafts<Item: Sendable>(
        of batch: [Item], jobs: Int, _ draft: @Sendable (Item) -> Result<CourseDraft, any Error>
    ) -> [Result<CourseDraft, any Error>] {
        let slots = DraftSlots(count: batch.count)
        let jobs = max(1, min(jobs, batch.count))
        DispatchQueue.concurrentPerform(iterations: jobs) { stripe in
            for index in stride(from: stripe, to: batch.count, by: jobs) {
                slots.set(index, draft(batch[index]))
            }
        }
        return slots.values.map { $0! }
    }
}

/// The drafts of one batch, filled in by the drafting threads.
private final class DraftSlots: @unchecked Sendable {
    private var slots: [Result<CourseDraft, any Error>?]
    private let lock = NSLock()

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ value: Result<CourseDraft, any Error>) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    /// Every slot; read once the drafting threads are done.
    var values: [Result<CourseDraft, any Error>?] {
        lock.lock()
        defer { lock.unlock() }
        return slots
    }
}
