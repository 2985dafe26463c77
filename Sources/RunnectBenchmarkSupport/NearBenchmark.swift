import Foundation
import RunnectKit
import RunnectStore

/// Near-me search benchmark: a store of courses placed as a service's would be
/// (``CoursePlacement``: 30 % in Seoul, 30 % in nine more Korean cities, 35 % in thirty cities
/// elsewhere, 5 % anywhere) and a fixed set of near-me searches timed over it.
///
/// ```swift
/// let report = try NearBenchmark.run(courseCount: 100_000, path: "/tmp/near-bench.sqlite")
/// print(report.text)
/// ```
public enum NearBenchmark {
    struct Query {
        var name: String
        var point: Coordinate
        var withinMeters: Double = 5_000
        var keywords: String = ""
        var sort: CourseSort = .relevance
        var scope: SearchScope = .shared
    }

    /// Points in Seoul (its densest parts and its edge), elsewhere in Korea and the world,
    /// across the antimeridian, and where there is nothing; radii of 1, 5 and 20 km; keywords
    /// common and rare.
    static let queries: [Query] = [
        Query(name: "Seoul Jamsil", point: Coordinate(latitude: 37.5113, longitude: 127.0985)),
        Query(name: "Seoul Banpo", point: Coordinate(latitude: 37.5100, longitude: 126.9960)),
        Query(name: "Seoul Yeouido", point: Coordinate(latitude: 37.5283, longitude: 126.9326), scope: .all),
        Query(
            name: "Seoul Gangnam 1 km", point: Coordinate(latitude: 37.4979, longitude: 127.0276), withinMeters: 1_000),
        Query(
            name: "Seoul Mapo 20 km", point: Coordinate(latitude: 37.5663, longitude: 126.9019), withinMeters: 20_000),
        Query(name: "Seoul Nowon (edge)", point: Coordinate(latitude: 37.6542, longitude: 127.0568)),
        Query(name: "Busan Haeundae", point: Coordinate(latitude: 35.1587, longitude: 129.1604)),
        Query(name: "Jeju", point: Coordinate(latitude: 33.4996, longitude: 126.5312)),
        Query(name: "Tokyo", point: Coordinate(latitude: 35.6812, longitude: 139.7671)),
        Query(name: "London", point: Coordinate(latitude: 51.5072, longitude: -0.1276), withinMeters: 20_000),
        Query(name: "Suva (antimeridian)", point: Coordinate(latitude: -18.1416, longitude: 178.4419)),
        Query(name: "Sahara (nothing)", point: Coordinate(latitude: 23.4162, longitude: 25.6628)),
        Query(name: "Pacific (nothing) 20 km", point: Coordinate(latitude: 0, longitude: -140), withinMeters: 20_000),
        Query(name: "한강 near Jamsil", point: Coordinate(latitude: 37.5113, longitude: 127.0985), keywords: "한강"),
        Query(
            name: "강 near Banpo (date)", point: Coordinate(latitude: 37.5100, longitude: 126.9960), keywords: "강",
            sort: .date),
        Query(name: "Night near Mapo", point: Coordinate(latitude: 37.5663, longitude: 126.9019), keywords: "Night"),
        Query(
            name: "잠실 near Busan", point: Coordinate(latitude: 35.1587, longitude: 129.1604), keywords: "잠실",
            sort: .date),
    ]

    /// The timings of one query.
    public struct QueryFigures: Sendable {
        public var name: String
        public var withinMeters: Double
        public var keywords: String
        public var hits: Int
        public var samplesMilliseconds: [Double]
        public var p50Milliseconds: Double { percentile(samplesMilliseconds, 0.5) }
        public var p95Milliseconds: Double { percentile(samplesMilliseconds, 0.95) }
    }

    /// Measured figures of one run.
    public struct Report: Sendable {
        public var courseCount: Int
        public var insertSeconds: Double
        public var fileBytes: Int64
        public var queries: [QueryFigures]

        public init(courseCount: Int, insertSeconds: Double, fileBytes: Int64, queries: [QueryFigures]) {
            self.courseCount = courseCount
            self.insertSeconds = insertSeconds
            self.fileBytes = fileBytes
            self.queries = queries
        }

        /// All samples pooled, and those of the queries without keywords.
        public var p50Milliseconds: Double { percentile(queries.flatMap(\.samplesMilliseconds), 0.5) }
        public var p95Milliseconds: Double { percentile(queries.flatMap(\.samplesMilliseconds), 0.95) }

        public var text: String {
            var lines = [
                String(
                    format: "near bench: %d courses, insert %.1f s, file %.1f MB", courseCount, insertSeconds,
                    Double(fileBytes) / 1e6),
                "  hits   p50 ms   p95 ms  km  query",
            ]
            for query in queries {
                lines.append(
                    String(
                        format: "  %4d %8.3f %8.3f %3.0f  ", query.hits, query.p50Milliseconds, query.p95Milliseconds,
                        query.withinMeters / 1000) + query.name)
            }
            let plain = queries.filter { $0.keywords.isEmpty }.flatMap(\.samplesMilliseconds)
            let keyed = queries.filter { !$0.keywords.isEmpty }.flatMap(\.samplesMilliseconds)
            lines.append(
                String(
                    format:
                        "  near only: p50 %.3f ms p95 %.3f ms; with keywords: p50 %.3f ms p95 %.3f ms; all: p50 %.3f ms p95 %.3f ms",
                    percentile(plain, 0.5), percentile(plain, 0.95), percentile(keyed, 0.5), percentile(keyed, 0.95),
                    p50Milliseconds, p95Milliseconds))
            return lines.joined(separator: "\n")
        }

        /// One `near_query` JSON line per query and a `near_summary` line.
        public var jsonLines: [String] {
            var lines = queries.map { query in
                String(
                    format:
                        "{\"kind\":\"near_query\",\"courses\":%d,\"query\":\"%@\",\"within_m\":%.0f,\"hits\":%d,\"p50_ms\":%.3f,\"p95_ms\":%.3f}",
                    courseCount, query.name, query.withinMeters, query.hits, query.p50Milliseconds,
                    query.p95Milliseconds)
            }
            lines.append(
                String(
                    format:
                        "{\"kind\":\"near_summary\",\"courses\":%d,\"insert_s\":%.1f,\"p50_ms\":%.3f,\"p95_ms\":%.3f}",
                    courseCount, insertSeconds, p50Milliseconds, p95Milliseconds))
            return lines
        }
    }

    static func percentile(_ samples: [Double], _ p: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// Builds (or, with `reuse` and a file already there, opens) a store of `courseCount` placed
    /// courses at `path` and times every query `repeats` times, round robin, after one round to
    /// warm the caches: first pages of 20.
    public static func run(
        courseCount: Int, path: String, repeats: Int = 20, jobs: Int = 1, reuse: Bool = false, seed: UInt64 = 2024
    ) async throws -> Report {
        let clock = ContinuousClock()
        var insertSeconds = 0.0
        let exists = FileManager.default.fileExists(atPath: path)
        if !(reuse && exists) {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
        }
        let store = try await CourseStore(path: path, user: "bench")
        if !(reuse && exists) {
            let start = clock.now
            try await CorpusGenerator.fillPlaced(store, count: courseCount, batch: 10_000, jobs: jobs, seed: seed)
            insertSeconds = SearchBenchmark.seconds(clock.now - start)
            try await store.checkpoint()
        }
        let fileBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? 0
        return await Report(
            courseCount: courseCount, insertSeconds: insertSeconds, fileBytes: fileBytes,
            queries: try time(store, repeats: repeats))
    }

    /// Times every query of the fixed set on `store` `repeats` times, round robin, after one
    /// round to warm the caches: first pages of 20.
    ///
    /// - Throws: What the store's search throws.
    public static func time(_ store: CourseStore, repeats: Int) async throws -> [QueryFigures] {
        let clock = ContinuousClock()
        var samples = [[Double]](repeating: [], count: queries.count)
        var hits = [Int](repeating: 0, count: queries.count)
        let page = Page(limit: 20)
        for round in 0...max(1, repeats) {
            for (index, query) in queries.enumerated() {
                let start = clock.now
                let found = try await store.search(
                    keywords: query.keywords, near: query.point, withinMeters: query.withinMeters, scope: query.scope,
                    sort: query.sort, page: page)
                let elapsed = SearchBenchmark.seconds(clock.now - start) * 1000
                if round > 0 { samples[index].append(elapsed) }
                hits[index] = found.count
            }
        }
        return queries.indices.map {
            QueryFigures(
                name: queries[$0].name, withinMeters: queries[$0].withinMeters, keywords: queries[$0].keywords,
                hits: hits[$0], samplesMilliseconds: samples[$0])
        }
    }
}
