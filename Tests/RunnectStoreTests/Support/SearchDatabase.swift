import Foundation
import GRDB
import RunnectKit
import RunnectPostgres
import RunnectTestSupport
import Testing

@testable import RunnectStore

/// A store of one ``StoreKind`` filled course by course through the backend's own insert (its
/// search entry made as an import makes it), with what search orders by set as the test says:
/// creation date, sharing, scrap count and length. Each course is a short drawn path of its own.
///
/// On SQLite the courses are user `a`'s, searched through the index under each of its plans;
/// on PostgreSQL they belong to a runner role, inserted by the superuser (a runner may not set
/// dates, counts or ids) and searched by the runner, under row-level security, with each of
/// the backend's plans.
final class SearchDatabase {
    let kind: StoreKind
    /// The store that inserts: user `a` on SQLite, the superuser on PostgreSQL.
    private let writer: CourseStore
    /// Who owns the courses.
    private let owner: String
    /// The backends that search, one for each PostgreSQL plan; none on SQLite (its plans are
    /// arguments of its search).
    private let searchers: [any StoreBackend]
    private let postgres: ClusterDatabase?
    private var clock = Date(timeIntervalSince1970: 1_700_000_000)
    private var count = 0
    /// Whether PostgreSQL's figures for the search entries are older than the last course
    /// added: a search weighs its reads by the table's size (`reltuples`), which an empty
    /// table's indexes leave at 0, where every search sorts its few matches at once and no walk
    /// reaches its tiers.
    private var unanalyzed = false

    private init(
        kind: StoreKind, writer: CourseStore, owner: String, searchers: [any StoreBackend], postgres: ClusterDatabase?
    ) {
        self.kind = kind
        self.writer = writer
        self.owner = owner
        self.searchers = searchers
        self.postgres = postgres
    }

    /// The SQLite file's pool.
    private var pool: DatabasePool { writer.pool }

    /// Reads the SQLite file, for the tests of SQLite's own index (synchronously: an async
    /// test would otherwise get GRDB's async overload).
    func sqliteRead<T>(_ body: (GRDB.Database) throws -> T) throws -> T {
        try pool.read(body)
    }

    /// Writes the SQLite file, for the tests of SQLite's own index.
    func sqliteWrite<T>(_ body: (GRDB.Database) throws -> T) throws -> T {
        try pool.write(body)
    }

    /// Inserts and indexes a course; by default shared, a minute newer than the one before.
    @discardableResult
    func add(
        _ title: String, description: String? = nil, departure: [String] = [], uploaded: Bool = true,
        createdAt: Date? = nil, distance: Double = 5_000, scraps: Int = 0
    ) async throws -> Int64 {
        clock += 60
        count += 1
        // A departure's first three parts are its region, city and town; fewer are padded with
        // empty parts, which no keyword matches.
        let parts = departure + Array(repeating: "", count: max(0, 3 - departure.count))
        // A line north along a meridian of `distance` metres (about: a degree is 110,985 m at
        // 37.5°N), from one latitude: equal distances measure equal, as the database checks a
        // course's distance against its path's length (PostgreSQL schema version 15).
        let start = Coordinate(latitude: 37.5, longitude: 127 + Double(count) * 1e-4)
        let end = Coordinate(latitude: 37.5 + distance / 110_985, longitude: start.longitude)
        var draft = try CourseDraft(
            activity: Activity(format: .pointsText, routes: [Route(points: [start, end].map(TrackPoint.init))]),
            contentHash: ContentHash.of(Array("search-\(count)".utf8)), title: title, description: description,
            departure: departure.isEmpty
                ? nil
                : Departure(
                    region: parts[0], city: parts[1], town: parts[2], detail: parts.count > 3 ? parts[3] : nil,
                    name: parts.count > 4 ? parts[4] : nil))
        draft.preset(owner: owner, createdAt: createdAt ?? clock, isUploaded: uploaded, scrapCount: scraps)
        draft.record.id = Int64(count)
        unanalyzed = true
        let finished = draft
        return try await writer.write { try await $0.insertCourse(finished) }.id
    }

    /// The courses stored.
    func courseCount() async throws -> Int {
        try await writer.read { try await $0.counts() }.courses
    }

    /// The search under every plan of the backend (SQLite: sorting candidates, and walking
    /// whenever possible; PostgreSQL: its standard settings; walks of two courses, then eight…,
    /// reading the server's ordered rows one, then two, four… at a time; every slice sorted from
    /// the GIN index; relevance sorted without tiers), which must agree; returns their common
    /// answer.
    func searchAllPlans(
        _ keywords: String, scope: SearchScope = .all, sort: CourseSort = .date, limit: Int = 1_000,
        offset: Int = 0, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [Int64] {
        let answers: [[Int64]]
        switch kind {
        case .sqlite:
            let plans: [SQLiteSearchIndex.Plans] = [
                .standard,
                SQLiteSearchIndex.Plans(denseCandidateCount: 1, maxTieredWords: 3),
                SQLiteSearchIndex.Plans(denseCandidateCount: Int.max, maxTieredWords: 0),
            ]
            answers = try plans.map { plans in
                try pool.read {
                    try SQLiteSearchIndex.search(
                        $0, SearchRequest(keywords: keywords, scope: scope, sort: sort, limit: limit, offset: offset),
                        plans: plans)
                }
            }
        case .postgres:
            if unanalyzed, let postgres {
                let analyzed = try postgres.adminSQL("ANALYZE course_search")
                #expect(analyzed.status == 0, "\(analyzed.stderr)", sourceLocation: sourceLocation)
                unanalyzed = false
            }
            answers = try await searchers.asyncMap { backend in
                try await backend.read(as: owner) {
                    try await $0.searchIDs(keywords: keywords, scope: scope, sort: sort, limit: limit, offset: offset)
                }
            }
        }
        #expect(
            answers.allSatisfy { $0 == answers[0] }, "plans disagree for \(keywords) \(sort): \(answers)",
            sourceLocation: sourceLocation)
        return answers[0]
    }

    /// Checks the index against its courses: SQLite's FTS5 `integrity-check`; on PostgreSQL,
    /// that every entry's tokens (what its GIN index holds) are exactly those of its text, its
    /// grams in both the title and the departure included.
    func checkIntegrity(sourceLocation: SourceLocation = #_sourceLocation) throws {
        switch kind {
        case .sqlite:
            try pool.write { db in
                try db.execute(sql: "INSERT INTO course_search_token (course_search_token) VALUES ('integrity-check')")
            }
        case .postgres:
            // Every entry's tokens (what the GIN index holds) are those of its text, as the
            // SQLite index would cut it, then its `b` tokens. Fields end with U+001F, entries
            // with U+001E.
            let result = try #require(postgres).adminSQL(
                """
                SELECT string_agg(concat_ws(chr(31), course_id, title, description, departure,
                                            array_to_string(tokens, ' ')), chr(30) ORDER BY course_id)
                FROM course_search
                """)
            #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
            let entries = result.stdout.dropLast().split(separator: "\u{1E}", omittingEmptySubsequences: false)
            #expect(!entries.isEmpty, sourceLocation: sourceLocation)
            for entry in entries {
                let fields = entry.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
                guard fields.count == 5 else {
                    Issue.record("entry \(entry) has \(fields.count) fields", sourceLocation: sourceLocation)
                    continue
                }
                let expected = SearchText(title: fields[1], description: fields[2], departure: fields[3])
                    .postgresTokenDocument
                #expect(fields[4] == expected, "course \(fields[0])", sourceLocation: sourceLocation)
            }
        }
    }

    /// A search database of `kind`; where it cannot be had (no PostgreSQL cluster: only under CI,
    /// see ``StoreKind/available``) an issue is recorded and the call throws.
    static func make(_ kind: StoreKind, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> SearchDatabase
    {
        try kind.require(sourceLocation: sourceLocation)
        switch kind {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("runnect-search-tests-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let store = try await CourseStore(path: directory.appendingPathComponent("search.sqlite").path, user: "a")
            let database = SearchDatabase(kind: .sqlite, writer: store, owner: "a", searchers: [], postgres: nil)
            database.directory = directory
            return database
        case .postgres:
            let database = try await PostgresStoreDatabase()
            let runner = try await database.addRunner("search")
            // The shipped settings; walks of two courses read a row at a time, with relevance
            // always tier by tier (a test's store is small enough for the shipped settings to
            // sort every match at once, so only this one reaches the tiers' own reads: walking
            // on, a title count's matches, a tier's); walks of 16, where a page of a few takes
            // its tiers' rows from the walk; every slice sorted from the GIN index; relevance
            // without tiers.
            let plans = [
                PostgresSearchPlans.standard,
                PostgresSearchPlans(walkRows: 2, sortedMatches: 1, firstBatch: 1, growth: 2),
                PostgresSearchPlans(walkRows: 16, sortedMatches: 1, firstBatch: 1, growth: 2),
                PostgresSearchPlans(walkRows: nil), PostgresSearchPlans(maxTieredWords: 0),
            ]
            return SearchDatabase(
                kind: .postgres, writer: try await CourseStore(postgres: try database.database.adminURL),
                owner: runner.role,
                searchers: try await plans.asyncMap { try await PostgresBackend(url: runner.url, searchPlans: $0) },
                postgres: database.database)
        }
    }

    /// The SQLite file's folder, removed with the database.
    private var directory: URL?

    deinit {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }
}
