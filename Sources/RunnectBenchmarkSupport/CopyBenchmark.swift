import Foundation
import RunnectStore

/// `runnect db copy` timed: a store of generated courses (the search benchmark's corpus, shared
/// and scrapped by many owners) copied into another store.
public enum CopyBenchmark {
    /// Fills a new SQLite store at `path` with `count` generated courses, drafted on `jobs`
    /// threads, 10,000 a transaction.
    public static func fill(path: String, count: Int, jobs: Int, seed: UInt64 = 14) async throws -> CourseStore {
        let store = try await CourseStore(path: path, user: "bench")
        try await CorpusGenerator.fill(store, count: count, batch: 10_000, jobs: jobs, seed: seed)
        try await store.checkpoint()
        return store
    }

    /// What one copy took.
    public struct Report: Sendable {
        public var courses: Int
        public var seconds: Double
        public var summary: CopySummary
        public var coursesPerSecond: Double { Double(courses) / seconds }
    }

    /// Copies `source` into `destination`, timed.
    public static func copy(from source: CourseStore, to destination: CourseStore) async throws -> Report {
        let start = Date()
        let summary = try await destination.copy(from: source)
        let seconds = Date().timeIntervalSince(start)
        return Report(courses: summary.courses + summary.coursesPresent, seconds: seconds, summary: summary)
    }
}
