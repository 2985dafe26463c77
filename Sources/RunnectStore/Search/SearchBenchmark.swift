import Foundation
import GRDB
import RunnectKit

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
        /// Wall time of ``SearchIndex/optimize(_:)`` after the insert, if it ran.
        public var optimizeSeconds: Double?
        /// Segments of the FTS5 token index when the queries ran (each query term is looked up
        /// in every segment).
        public var tokenIndexSegments: Int
        /// Database file size after the insert, bytes.
        public var fileBytes: Int64
        /// Latency figures per query.
        public var queries: [QueryFigures]

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
                var course_count: Int
                var commit_every: Int
                var jobs: Int
                var insert_s: Double
                var insert_courses_per_s: Double
                var optimize_s: Double?
                var token_index_segments: Int
                var file_bytes: Int64
            }
            struct Query: Encodable {
                var kind = "search_query"
                var query_class: String
                var keywords: String
                var sort: String
                var scope: String
                var hits: Int
                var p50_ms: Double
                var p95_ms: Double
                var max_ms: Double
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            func line(_ value: some Encodable) -> String {
                (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            }
            let insert = Insert(
                course_count: courseCount, commit_every: commitEvery, jobs: jobs, insert_s: insertSeconds,
                insert_courses_per_s: insertCoursesPerSecond, optimize_s: optimizeSeconds,
                token_index_segments: tokenIndexSegments, file_bytes: fileBytes)
            return [line(insert)]
                + queries.map {
                    line(
                        Query(
                            query_class: $0.queryClass, keywords: $0.keywords, sort: $0.sort, scope: $0.scope,
                            hits: $0.hits, p50_ms: $0.p50Milliseconds, p95_ms: $0.p95Milliseconds,
                            max_ms: $0.maxMilliseconds))
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
    /// there) and times every query of the fixed set `repeats` times (first pages of 20, all
    /// queries in turn, after one round to warm the caches).
    ///
    /// - Parameters:
    ///   - commitEvery: Courses per write transaction. Big transactions give the bulk rate; one
    ///     course per transaction is how `runnect import` writes (one per file), and leaves the
    ///     token index in more segments, which queries then pay for.
    ///   - optimize: Run ``SearchIndex/optimize(_:)`` after the insert (timed on its own).
    ///   - jobs: Threads drafting courses (path, stats, geometry, search entry) while this one
    ///     stores them, as ``BulkImporter`` does with files.
    /// - Throws: Database errors.
    public static func run(
        courseCount: Int, path: String, repeats: Int = 30, commitEvery: Int = 10_000, optimize: Bool = false,
        jobs: Int = 1, seed: UInt64 = 2024
    ) throws -> Report {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
        let store = try CourseStore(path: path, user: "bench")

        // A bulk import as the store does it: each course drafted (path generated, stats
        // computed, geometry encoded) and stored with its search entry, `commitEvery` courses a
        // transaction, all on this thread.
        var generator = CorpusGenerator(seed: seed)
        let clock = ContinuousClock()
        let batch = max(1, commitEvery)
        var batches: [[(Int, CorpusGenerator.Course)]] = []
        for start in stride(from: 0, to: courseCount, by: batch) {
            batches.append((start..<min(start + batch, courseCount)).map { ($0, generator.next()) })
        }
        let insertStart = clock.now
        try DraftPipeline.run(batches, jobs: jobs) { number, course in
            Result { try course.draft(number: number) }
        } store: { _, drafted in
            for result in try store.insert(drafted.map { try $0.get() }) {
                _ = try result.get()
            }
        }
        let insertSeconds = seconds(clock.now - insertStart)
        var optimizeSeconds: Double?
        if optimize {
            let start = clock.now
            try store.optimizeSearch()
            optimizeSeconds = seconds(clock.now - start)
        }
        try store.pool.writeWithoutTransaction { db in
            // No ANALYZE: the store runs none, and the search's plans do not depend on it.
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        let segments = try store.read { db in
            try Int.fetchOne(db, sql: "SELECT count(DISTINCT segid) FROM course_search_token_idx") ?? 0
        }
        let fileBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? 0

        // Round robin, so that no query only ever meets the pages it warmed itself; the first
        // round warms the caches and is not counted.
        var samples = [[Double]](repeating: [], count: queries.count)
        var hits = [Int](repeating: 0, count: queries.count)
        let page = Page(limit: 20)
        for round in 0...max(1, repeats) {
            for (index, query) in queries.enumerated() {
                let start = clock.now
                let courses = try store.search(keywords: query.keywords, scope: query.scope, sort: query.sort, page: page)
                let elapsed = seconds(clock.now - start) * 1000
                if round > 0 { samples[index].append(elapsed) }
                hits[index] = courses.count
            }
        }
        let figures = queries.indices.map { index in
            QueryFigures(
                queryClass: queries[index].queryClass, keywords: queries[index].keywords,
                sort: queries[index].sort.rawValue, scope: queries[index].scope == .shared ? "shared" : "all",
                hits: hits[index], samplesMilliseconds: samples[index])
        }
        return Report(
            courseCount: courseCount, commitEvery: batch, jobs: jobs, insertSeconds: insertSeconds,
            insertCoursesPerSecond: Double(courseCount) / max(insertSeconds, 1e-9), optimizeSeconds: optimizeSeconds,
            tokenIndexSegments: segments, fileBytes: fileBytes, queries: figures)
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    /// The columns and list indexes of the store's `course` table that search reads (see
    /// `CourseStore+Migrations.swift`), without the geometry and stats it does not, plus the
    /// search tables.
    static func createBenchmarkSchema(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE course (
                    id INTEGER PRIMARY KEY,
                    owner TEXT NOT NULL,
                    title TEXT NOT NULL,
                    description TEXT,
                    departure_region TEXT,
                    departure_city TEXT,
                    departure_town TEXT,
                    departure_detail TEXT,
                    departure_name TEXT,
                    is_uploaded BOOLEAN NOT NULL DEFAULT 0,
                    created_at DATETIME NOT NULL,
                    distance_m DOUBLE NOT NULL,
                    scrap_count INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE scrap (
                    course_id INTEGER NOT NULL REFERENCES course(id) ON DELETE CASCADE,
                    user TEXT NOT NULL,
                    PRIMARY KEY (course_id, user)
                ) WITHOUT ROWID;
                CREATE INDEX course_owner_created ON course(owner, created_at);
                CREATE INDEX course_shared_created ON course(is_uploaded, created_at);
                CREATE INDEX course_shared_scraps ON course(is_uploaded, scrap_count, created_at);
                CREATE INDEX course_shared_distance ON course(is_uploaded, distance_m);
                """)
        try SearchIndex.createTables(db)
    }
}

// MARK: - Corpus

/// Generated courses that look like the service's: Korean and English titles, descriptions of
/// a sentence or two, Seoul-style addresses (`서울 송파구 잠실동 올림픽로 25`) and place names.
struct CorpusGenerator {
    struct Course {
        var owner: String
        var title: String
        var description: String
        var departure: [String]
        var isUploaded: Bool
        var createdAt: Date
        var distanceMeters: Double
        var scrapCount: Int
    }

    private var state: UInt64
    private var clock: Double = 1_640_995_200  // 2022-01-01

    init(seed: UInt64) {
        state = seed
    }

    /// SplitMix64: fixed arithmetic, the same corpus on every platform and Swift version.
    private mutating func nextRandom() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func unit() -> Double {
        Double(nextRandom() >> 11) * 0x1p-53
    }

    private mutating func int(_ bound: Int) -> Int {
        Int(nextRandom() % UInt64(bound))
    }

    private mutating func pick<T>(_ items: [T]) -> T {
        items[int(items.count)]
    }

    static let districts: [(gu: String, towns: [String], roads: [String])] = [
        ("송파구", ["잠실동", "신천동", "방이동", "석촌동", "문정동", "가락동"], ["올림픽로", "송파대로", "백제고분로", "석촌호수로"]),
        ("서초구", ["반포동", "잠원동", "서초동", "방배동", "양재동"], ["반포대로", "신반포로", "강남대로", "양재천로"]),
        ("강남구", ["압구정동", "청담동", "삼성동", "대치동", "개포동", "역삼동"], ["테헤란로", "압구정로", "도산대로", "영동대로"]),
        ("영등포구", ["여의도동", "당산동", "문래동", "양평동"], ["여의대로", "국회대로", "노들로", "선유로"]),
        ("마포구", ["망원동", "합정동", "상암동", "연남동", "공덕동"], ["월드컵로", "양화로", "마포대로", "성미산로"]),
        ("성동구", ["성수동", "옥수동", "금호동", "행당동"], ["뚝섬로", "왕십리로", "독서당로", "성수일로"]),
        ("용산구", ["이촌동", "한남동", "이태원동", "후암동"], ["이촌로", "한강대로", "녹사평대로", "서빙고로"]),
        ("종로구", ["청운동", "삼청동", "혜화동", "평창동"], ["세종대로", "종로", "율곡로", "북악산로"]),
        ("중구", ["명동", "필동", "회현동", "신당동"], ["을지로", "퇴계로", "남산공원길", "소파로"]),
        ("광진구", ["자양동", "구의동", "광장동", "화양동"], ["능동로", "아차산로", "광나루로", "자양로"]),
        ("강동구", ["천호동", "암사동", "고덕동", "명일동"], ["천호대로", "올림픽로", "고덕로", "양재대로"]),
        ("노원구", ["상계동", "중계동", "하계동", "공릉동"], ["동일로", "노원로", "화랑로", "한글비석로"]),
        ("은평구", ["불광동", "응암동", "진관동", "녹번동"], ["통일로", "연서로", "진관길", "은평로"]),
        ("관악구", ["신림동", "봉천동", "남현동"], ["관악로", "남부순환로", "신림로", "호암로"]),
        ("강서구", ["마곡동", "화곡동", "가양동", "방화동"], ["공항대로", "양천로", "마곡중앙로", "강서로"]),
        ("동작구", ["사당동", "노량진동", "흑석동", "상도동"], ["동작대로", "노량진로", "현충로", "상도로"]),
    ]

    static let places = [
        "잠실종합운동장", "올림픽공원", "반포한강공원", "여의도한강공원", "뚝섬한강공원", "서울숲", "남산공원",
        "월드컵공원", "석촌호수", "양재천", "청계천", "북한산", "망원한강공원", "보라매공원", "어린이대공원",
        "Seoul Forest", "Olympic Park", "Banpo Bridge",
    ]

    static let koreanTitleStarts = [
        "잠실", "반포", "여의도", "망원", "성수", "석촌호수", "양재천", "남산", "한강", "올림픽공원", "서울숲",
        "청계천", "뚝섬", "이촌", "북한산", "상암", "한강공원", "잠실 한강공원", "반포 한강공원",
    ]
    static let koreanTitleEnds = [
        "10K", "5K", "하프", "야간 러닝", "새벽런", "한 바퀴", "인터벌", "업힐 훈련", "회복주", "LSD",
        "러닝 코스", "산책 코스", "조깅", "템포런", "풀코스 연습",
    ]
    static let englishTitles = [
        "Hangang Night Run", "Seoul Forest Loop", "Olympic Park 5K", "Morning Tempo Run", "Riverside Easy Jog",
        "Banpo Rainbow Bridge Run", "Namsan Hill Repeats", "Yeouido Sunset 10K", "Cheonggyecheon Stream Walk",
        "Long Sunday Run", "Recovery Shuffle", "Track Intervals", "Lake Seokchon Lap", "Han River Half",
    ]
    static let descriptionParts = [
        "평지 위주의 코스입니다.", "야경이 멋진 코스", "초보자 추천", "업힐 구간 있음", "화장실과 편의점 있음",
        "자전거 도로와 겹치니 주의", "그늘이 많아 여름에 좋아요", "한강 바람이 시원합니다", "신호등이 거의 없어요",
        "주말 아침 러닝 크루 모임 코스", "Flat and fast.", "Great for beginners.", "Bring water in summer.",
        "Lots of cyclists on weekends.", "Best at sunset.", "100% flat", "물 마실 곳 2곳", "서울 러닝 명소",
    ]
    static let owners = ["minji", "jisoo", "hyun", "seoyeon", "alex", "doyun", "yuna", "runner42", "sam", "haneul"]

    mutating func next() -> Course {
        let district = pick(Self.districts)
        let town = pick(district.towns)
        let road = pick(district.roads)
        var departure = ["서울", district.gu, town, "\(road) \(1 + int(300))"]
        if unit() < 0.5 { departure.append(pick(Self.places)) }

        let title: String
        switch int(10) {
        case 0..<3: title = pick(Self.englishTitles)
        case 3..<5: title = "\(town.dropLast()) \(pick(Self.koreanTitleEnds))"
        default: title = "\(pick(Self.koreanTitleStarts)) \(pick(Self.koreanTitleEnds))"
        }
        var description = pick(Self.descriptionParts)
        if unit() < 0.6 { description += " " + pick(Self.descriptionParts) }
        if unit() < 0.2 { description += " " + pick(Self.descriptionParts) }

        let isUploaded = unit() < 0.6
        let scrapCount = isUploaded ? Int(pow(unit(), 4) * 200) : 0
        // The store stamps a course when it inserts it, so dates follow ids, a course every
        // quarter of an hour on average (100,000 courses ≈ 3 years); one in 200 is stamped up to
        // a day earlier than the one before (clocks, racing writers), out of order.
        clock += unit() * 1_800
        let createdAt = Date(timeIntervalSince1970: unit() < 0.005 ? clock - unit() * 86_400 : clock)
        return Course(
            owner: pick(Self.owners), title: title, description: description, departure: departure,
            isUploaded: isUploaded, createdAt: createdAt, distanceMeters: (1_000 + unit() * 41_000).rounded(),
            scrapCount: scrapCount)
    }
}

extension CorpusGenerator.Course {
    /// Points on the generated paths: a run of 10 km has as many as a watch recording a point
    /// every 5 s would have in about a tenth of it (the store's cost per point is the codec's).
    static let pathPoints = 120

    /// A draft of this course as a stored one: a loop of its distance near Seoul's centre, a
    /// point every few seconds at a 6 min/km pace, its owner, date, share flag and scrap count
    /// preset. `number` makes the content hash unique.
    func draft(number: Int) throws -> CourseDraft {
        let centre = Coordinate(latitude: 37.45 + Double(number % 97) * 0.002,
                                longitude: 126.85 + Double(number % 89) * 0.003)
        let radius = distanceMeters / (2 * .pi)
        let count = Self.pathPoints
        // A circle on a local flat approximation: any plausible path will do (its length is
        // measured geodesically by the stats like any other), and generating it is not timed
        // work of the store, so it should cost next to nothing.
        let metresPerDegree = 111_320.0
        let latitudeRadius = radius / metresPerDegree
        let longitudeRadius = radius / (metresPerDegree * cos(centre.latitude * .pi / 180))
        let points = (0..<count).map { i -> TrackPoint in
            let angle = 2 * .pi * Double(i) / Double(count - 1)
            return TrackPoint(latitude: centre.latitude + latitudeRadius * cos(angle),
                              longitude: centre.longitude + longitudeRadius * sin(angle),
                              elevationMeters: 20 + 10 * sin(Double(i) / 7),
                              time: createdAt.addingTimeInterval(Double(i) * distanceMeters * 0.36 / Double(count)))
        }
        let activity = Activity(format: .gpx, tracks: [Track(name: title, segments: [TrackSegment(points: points)])])
        let hash = String(repeating: "0", count: 48) + String(format: "%016llx", UInt64(number))
        var draft = try CourseDraft(activity: activity, contentHash: hash, title: title, description: description,
                                    departure: Departure(region: departure[0], city: departure[1], town: departure[2],
                                                         detail: departure[3],
                                                         name: departure.count > 4 ? departure[4] : nil))
        draft.isPreset = true
        draft.record.owner = owner
        draft.record.createdAt = createdAt
        draft.record.isUploaded = isUploaded
        draft.record.uploadedAt = isUploaded ? createdAt : nil
        // The count the scrap triggers would keep, without a row per scrap: the benchmark times
        // searches, and no benchmark user scrapped anything.
        draft.record.scrapCount = scrapCount
        return draft
    }
}
