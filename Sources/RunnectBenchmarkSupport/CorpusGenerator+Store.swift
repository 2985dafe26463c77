import Foundation
import RunnectStore

extension CorpusGenerator {
    /// Stores `count` generated courses (numbered from 0, so from the same seed the same
    /// courses) as a bulk import does: drafted (path, stats, geometry, search entry) on `jobs`
    /// threads, stored on this one, `batch` courses a transaction.
    /// - Throws: Database errors.
    static func fill(_ store: CourseStore, count: Int, batch: Int, jobs: Int, seed: UInt64) async throws {
        var generator = CorpusGenerator(seed: seed)
        let batch = max(1, batch)
        let batches = stride(from: 0, to: count, by: batch).map { start in
            (start..<min(start + batch, count)).map { ($0, generator.next()) }
        }
        try await DraftPipeline.run(batches, jobs: jobs) { number, course in
            Result { try course.draft(number: number) }
        } store: { _, drafted in
            for result in try await store.insert(drafted.map { try $0.get() }) { _ = try result.get() }
        }
    }
}
