import Foundation
import RunnectStore

/// Keyword-search benchmark: builds a database of generated courses (Korean and English titles,
/// Seoul addresses) and times a fixed set of searches over it.
///
/// Deterministic: the corpus comes from a seeded generator, so two runs search the same data.
/// Run it from a release build; debug builds are many times slower and say nothing about the
/// product.
///
/// ```swift
/// let report = try SearchBenchmark.run(courseCount: 100_000, path: "/tmp/search-bench.sqlite")
/// print(report.text)
/// ```
public enum SearchBenchmark {
    struct Query {
        var queryClass: String
        var keywords: String
        var sort: CourseSort
        var scope: SearchScope
    }

    /// The fixed query set: every keyword class, every sort, both scopes.
    static let queries: [Query] = [
        Query(queryClass: "1-syllable", keywords: "강", sort: .date, scope: .shared),
        Query(queryClass: "1-syllable", keywords: "한", sort: .relevance, scope: .shared),
        Query(queryClass: "1-syllable", keywords: "숲", sort: .scrap, scope: .all),
        Query(queryClass: "2-syllable", keywords: "한강", sort: .date, scope: .shared),
        Query(queryClass: "2-syllable", keywords: "반포", sort: .scrap, scope: .shared),
        Query(queryClass: "2-syllable", keywords: "잠실", sort: .relevance, scope: .shared),
        Query(queryClass: "2-syllable", keywords: "야경", sort: .distance, scope: .all),
        Query(queryClass: "3+syllable", keywords: "올림픽공원", sort: .date, scope: .shared),
        Query(queryClass: "3+syllable", keywords: "석촌호수", sort: .distance, scope: .shared),
        Query(queryClass: "3+syllable", keywords: "송파구", sort: .relevance, scope: .all),
        Query(queryClass: "initials", keywords: "ㅎㄱ", sort: .date, scope: .shared),
        Query(queryClass: "initials", keywords: "ㅇㄹㅍ", sort: .relevance, scope: .shared),
        Query(queryClass: "initials", keywords: "ㅈㅅ", sort: .scrap, scope: .shared),
        Query(queryClass: "mixed", keywords: "한ㄱ", sort: .date, scope: .shared),
        Query(queryClass: "mixed", keywords: "석ㅊㅎ", sort: .relevance, scope: .shared),
        Query(queryClass: "mixed", keywords: "하ㄱ", sort: .scrap, scope: .shared),
        Query(queryClass: "english", keywords: "han", sort: .date, scope: .shared),
        Query(queryClass: "english", keywords: "Night", sort: .relevance, scope: .shared),
        Query(queryClass: "english", keywords: "a", sort: .relevance, scope: .all),
        Query(queryClass: "english", keywords: "10k", sort: .distance, scope: .shared),
        Query(queryClass: "multi-word", keywords: "송파구 잠실동", sort: .date, scope: .shared),
        Query(queryClass: "multi-word", keywords: "hangang night run", sort: .relevance, scope: .shared),
        Query(queryClass: "multi-word", keywords: "서울 러닝 코스", sort: .scrap, scope: .all),
        Query(queryClass: "multi-word", keywords: "서울 강", sort: .relevance, scope: .shared),
        Query(queryClass: "literal", keywords: "'; DROP TABLE course; --", sort: .date, scope: .all),
        Query(queryClass: "literal", keywords: "100%", sort: .relevance, scope: .shared),
        Query(queryClass: "literal", keywords: "\"run\" OR NEAR(a b) *", sort: .date, scope: .shared),
    ]

    /// Builds a fresh database of `courseCount` generated courses at `path` (replacing any file
    /// there; with `reuse`, opens the one there instead) and times every query of the fixed set `repeats` times (first pages of 20, all
    /// queries in turn, after one round to warm the caches).
    ///
    /// - Parameters:
    ///   - commitEvery: Courses per write transaction. Big transactions give the bulk rate; one
    ///     course per transaction is how `runnect import` writes (one per file), and leaves the
    ///     token index in more segments, which queries then pay for.
    ///   - optimize: Run ``RunnectStore/CourseStore/optimizeSearch()`` after the insert (timed on its own).
    ///   - jobs: Threads drafting courses (path, stats, geometry, search entry) while this one
    ///     stores them, as ``BulkImporter`` does with files.
    /// - Throws: Database errors.
    public static func run(
        courseCount: Int, path: String, repeats: Int = 30, commitEvery: Int = 10_000, optimize: Bool = false,
        jobs: Int = 1, reuse: Bool = false, seed: UInt64 = 2024
    ) async throws -> Report {
        let reusing = reuse && FileManager.default.fileExists(atPath: path)
        if !reusing {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
        }
        let store = try await CourseStore(path: path, user: "bench")

        // A bulk import as the store does it: each course drafted (path generated, stats
        // computed, geometry encoded) and stored with its search entry, `commitEvery` courses a
        // transaction, all on this thread.
        let clock = ContinuousClock()
        let batch = max(1, commitEvery)
        let insertStart = clock.now
        if !reusing { try await CorpusGenerator.fill(store, count: courseCount, batch: batch, jobs: jobs, seed: seed) }
        let insertSeconds = reusing ? 0 : seconds(clock.now - insertStart)
        var optimizeSeconds: Double?
        if optimize {
            let start = clock.now
            try await store.optimizeSearch()
            optimizeSeconds = seconds(clock.now - start)
        }
        // No ANALYZE: the store runs none, and the search's plans do not depend on it.
        try await store.checkpoint()
        let segments = try await store.searchTokenIndexSegments()
        let fileBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? 0

        let figures = try await time(store, repeats: repeats)
        return Report(
            courseCount: courseCount, commitEvery: batch, jobs: jobs, insertSeconds: insertSeconds,
            insertCoursesPerSecond: Double(courseCount) / max(insertSeconds, 1e-9), optimizeSeconds: optimizeSeconds,
            tokenIndexSegments: segments, fileBytes: fileBytes, queries: figures)
    }

    /// Times every query of the fixed set on `store` `repeats` times: first pages of 20, all
    /// queries in turn, after one round to warm the caches. Round robin, so that no query only
    /// ever meets the pages it warmed itself.
    ///
    /// - Parameter only: When given, only the queries of these keywords (to profile one).
    /// - Throws: What the store's search throws.
    public static func time(_ store: CourseStore, repeats: Int, only: Set<String>? = nil) async throws -> [QueryFigures]
    {
        let clock = ContinuousClock()
        let queries = queries.filter { only?.contains($0.keywords) ?? true }
        var samples = [[Double]](repeating: [], count: queries.count)
        var hits = [Int](repeating: 0, count: queries.count)
        let page = Page(limit: 20)
        for round in 0...max(1, repeats) {
            for (index, query) in queries.enumerated() {
                let start = clock.now
                let courses = try await store.search(
                    keywords: query.keywords, scope: query.scope, sort: query.sort, page: page)
                let elapsed = seconds(clock.now - start) * 1000
                if round > 0 { samples[index].append(elapsed) }
                hits[index] = courses.count
            }
        }
        return queries.indices.map { index in
            QueryFigures(
                queryClass: queries[index].queryClass, keywords: queries[index].keywords,
                sort: queries[index].sort.rawValue, scope: queries[index].scope == .shared ? "shared" : "all",
                hits: hits[index], samplesMilliseconds: samples[index])
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}
