import Foundation

extension SearchBenchmark {
    /// Measured figures of one run.
    public struct Report: Sendable {
        /// Courses in the database.
        public var courseCount: Int
        /// Courses per write transaction during the insert.
        public var commitEvery: Int
        /// Threads drafting courses during the insert (one more stores them).
        public var jobs: Int
        /// Wall time of the bulk insert (course rows + search index), seconds.
        public var insertSeconds: Double
        /// Courses inserted per second, course rows and search index together.
        public var insertCoursesPerSecond: Double
        /// Wall time of ``RunnectStore/CourseStore/optimizeSearch()`` after the insert, if it ran.
        public var optimizeSeconds: Double?
        /// Segments of the FTS5 token index when the queries ran (each query term is looked up
        /// in every segment).
        public var tokenIndexSegments: Int
        /// Database file size after the insert, bytes.
        public var fileBytes: Int64
        /// Latency figures per query.
        public var queries: [QueryFigures]

        public init(
            courseCount: Int, commitEvery: Int, jobs: Int, insertSeconds: Double, insertCoursesPerSecond: Double,
            optimizeSeconds: Double?, tokenIndexSegments: Int, fileBytes: Int64, queries: [QueryFigures]
        ) {
            self.courseCount = courseCount
            self.commitEvery = commitEvery
            self.jobs = jobs
            self.insertSeconds = insertSeconds
            self.insertCoursesPerSecond = insertCoursesPerSecond
            self.optimizeSeconds = optimizeSeconds
            self.tokenIndexSegments = tokenIndexSegments
            self.fileBytes = fileBytes
            self.queries = queries
        }

        /// One line per figure, for people.
        public var text: String {
            var lines: [String] = []
            lines.append(
                String(
                    format:
                        "search bench: %d courses, %d per transaction, %d drafting: insert %.2f s = %.0f courses/s, file %.1f MB",
                    courseCount, commitEvery, jobs, insertSeconds, insertCoursesPerSecond, Double(fileBytes) / 1e6))
            lines.append(
                "  token index: \(tokenIndexSegments) segments"
                    + (optimizeSeconds.map { String(format: " after optimize (%.2f s)", $0) } ?? ""))
            lines.append("  class      sort       scope   hits   p50 ms   p95 ms   max ms  query")
            for query in queries {
                lines.append(
                    "  \(pad(query.queryClass, 10)) \(pad(query.sort, 10)) \(pad(query.scope, 6))"
                        + String(
                            format: " %5d %8.3f %8.3f %8.3f  ", query.hits, query.p50Milliseconds,
                            query.p95Milliseconds, query.maxMilliseconds) + query.keywords)
            }
            var classes: [String] = []
            for query in queries where !classes.contains(query.queryClass) {
                classes.append(query.queryClass)
            }
            lines.append("  per class (all runs of its queries pooled):")
            for name in classes + ["all"] {
                let samples = queries.filter { name == "all" || $0.queryClass == name }
                    .flatMap(\.samplesMilliseconds)
                lines.append(
                    "  \(pad(name, 10))"
                        + String(
                            format: " p50 %7.3f ms  p95 %7.3f ms  max %7.3f ms", Self.percentile(samples, 0.5),
                            Self.percentile(samples, 0.95), samples.max() ?? 0))
            }
            return lines.joined(separator: "\n")
        }

        /// One JSON object per line, keys in snake_case with units: a `search_insert` line, then
        /// one `search_query` line per query (for scripts that tabulate `runnect-bench` output).
        public var jsonLines: [String] {
            struct Insert: Encodable {
                var kind = "search_insert"
                var courseCount: Int
                var commitEvery: Int
                var jobs: Int
                var insertS: Double
                var insertCoursesPerS: Double
                var optimizeS: Double?
                var tokenIndexSegments: Int
                var fileBytes: Int64
            }
            struct Query: Encodable {
                var kind = "search_query"
                var queryClass: String
                var keywords: String
                var sort: String
                var scope: String
                var hits: Int
                var p50Ms: Double
                var p95Ms: Double
                var maxMs: Double
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.keyEncodingStrategy = .convertToSnakeCase  // courseCount → course_count, p95Ms → p95_ms
            func line(_ value: some Encodable) -> String {
                (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            }
            let insert = Insert(
                courseCount: courseCount, commitEvery: commitEvery, jobs: jobs, insertS: insertSeconds,
                insertCoursesPerS: insertCoursesPerSecond, optimizeS: optimizeSeconds,
                tokenIndexSegments: tokenIndexSegments, fileBytes: fileBytes)
            return [line(insert)]
                + queries.map {
                    line(
                        Query(
                            queryClass: $0.queryClass, keywords: $0.keywords, sort: $0.sort, scope: $0.scope,
                            hits: $0.hits, p50Ms: $0.p50Milliseconds, p95Ms: $0.p95Milliseconds,
                            maxMs: $0.maxMilliseconds))
                }
        }

        private func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
        }

        static func percentile(_ samples: [Double], _ p: Double) -> Double {
            guard !samples.isEmpty else { return 0 }
            let sorted = samples.sorted()
            let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
            return sorted[min(max(rank, 0), sorted.count - 1)]
        }
    }

    /// The timings of one benchmark query.
    public struct QueryFigures: Sendable {
        /// `1-syllable`, `2-syllable`, `3+syllable`, `initials`, `mixed`, `english`, `multi-word`,
        /// `literal` (injection-looking text).
        public var queryClass: String
        public var keywords: String
        public var sort: String
        public var scope: String
        /// Results on the first page.
        public var hits: Int
        public var samplesMilliseconds: [Double]
        public var p50Milliseconds: Double { Report.percentile(samplesMilliseconds, 0.5) }
        public var p95Milliseconds: Double { Report.percentile(samplesMilliseconds, 0.95) }
        public var maxMilliseconds: Double { samplesMilliseconds.max() ?? 0 }
    }
}
