import Foundation
import PostgresNIO
import RunnectStore

extension PostgresTransaction {
    // MARK: - Search

    /// The same answers as SQLite's search (`SearchIndex.search`), through the GIN index on
    /// `course_search.tokens`: a keyword's candidates are the entries holding all its lookup
    /// grams in one field (`tokens @> …`, a superset of its matches), and each row read is
    /// checked exactly here (``KoreanText/contains(_:word:)``, the reference definition of a
    /// match). Row-level security keeps `.all` to what the user may read.
    ///
    /// Each slice of the answer is read by one of two plans:
    /// - **Sort**: fewer candidates than ``PostgresSearchPlans/denseCandidateCount`` (counted
    ///   through the index, up to that count): all read, checked and sorted here.
    /// - **Walk** an index in the order asked (`course_search (created_ms, course_id)` newest
    ///   first, `course`'s list indexes for scrap and distance) through a cursor, checking each
    ///   row, until the page is full: dense keywords fill a page after a few hundred rows.
    ///
    /// Relevance (up to ``PostgresSearchPlans/maxTieredWords`` keywords) goes tier by tier, as
    /// on SQLite: all keywords in the title first, then fewer; within a title count, more in the
    /// departure first; each tier newest first, by either plan.
    func searchIDs(keywords: String, scope: SearchScope, sort: CourseSort, limit: Int, offset: Int) throws -> [Int64] {
        let search = PostgresSearch(words: KoreanText.words(in: keywords))
        guard !search.words.isEmpty, limit > 0 else { return [] }
        let offset = max(0, offset)
        let wanted = offset + limit
        var ids: [Int64] = []
        if sort == .relevance && search.words.count <= plans.maxTieredWords {
            let k = search.words.count
            tiers: for inTitle in stride(from: k, through: 0, by: -1) {
                for inDeparture in stride(from: k, through: 0, by: -1) {
                    let tier = PostgresSearch.Tier(inTitle: inTitle, inDeparture: inDeparture)
                    ids += try slice(search, scope: scope, sort: .date, wanted: wanted - ids.count, tier: tier)
                    if ids.count >= wanted { break tiers }
                }
            }
        } else {
            ids = try slice(search, scope: scope, sort: sort, wanted: wanted, tier: nil)
        }
        return Array(ids.dropFirst(offset).prefix(limit))
    }

    /// The first `wanted` matches (of `tier`, when given) in `sort` order, by the cheaper plan.
    func slice(
        _ search: PostgresSearch, scope: SearchScope, sort: CourseSort, wanted: Int, tier: PostgresSearch.Tier?
    ) throws -> [Int64] {
        let clauses = search.clauses(tier: tier)
        let accept = { (match: PostgresSearch.Match) in tier.map { $0.holds(match) } ?? true }
        // Through the GIN index, in a function of the tables' owner: under row-level security
        // the planner may not use `@>` (not leakproof) in an index scan of a runner's query.
        let candidates = try column(
            Int64.self,
            """
            SELECT runnect_search_candidates(\(PostgresSearch.encoded(clauses)), \(scope == .shared),
                                             \(Int32(clamping: plans.denseCandidateCount)))
            """)
        var bindings = PostgresBindings()
        var conditions = scope == .shared ? ["s.is_uploaded", "c.is_uploaded"] : []
        if candidates.count < plans.denseCandidateCount {
            bindings.append(candidates)
            conditions.append("s.course_id = ANY($1)")
            conditions += search.plainConditions(&bindings)
            let sql = "SELECT \(PostgresSearch.columns) WHERE \(conditions.joined(separator: " AND "))"
            let matches = try query(PostgresQuery(unsafeSQL: sql, binds: bindings)).rows.compactMap(search.match)
            return page(matches.filter(accept), sort: sort, limit: wanted, offset: 0)
        }
        conditions += PostgresSearch.conditions(clauses, &bindings) + search.plainConditions(&bindings)
        let filter = "WHERE \(conditions.joined(separator: " AND "))"
        return try walk(search, filter: filter, bindings: bindings, sort: sort, wanted: wanted, accept: accept)
    }

    /// Sorts matches in `sort` order and cuts the page.
    func page(_ matches: [PostgresSearch.Match], sort: CourseSort, limit: Int, offset: Int) -> [Int64] {
        let sorted = matches.sorted { a, b in
            switch sort {
            case .relevance:
                (a.inTitle, a.inDeparture, a.createdMs, a.id) > (b.inTitle, b.inDeparture, b.createdMs, b.id)
            case .date: (a.createdMs, a.id) > (b.createdMs, b.id)
            case .scrap: (a.scrapCount, a.createdMs, a.id) > (b.scrapCount, b.createdMs, b.id)
            case .distance: (a.distanceMeters, a.id) < (b.distanceMeters, b.id)
            }
        }
        return sorted.dropFirst(offset).prefix(limit).map(\.id)
    }

    /// The first `wanted` accepted matches in `sort` order (not relevance), walking an index
    /// through a cursor.
    func walk(
        _ search: PostgresSearch, filter: String, bindings: PostgresBindings, sort: CourseSort, wanted: Int,
        accept: (PostgresSearch.Match) -> Bool
    ) throws -> [Int64] {
        let order =
            switch sort {
            case .date, .relevance: "s.created_ms DESC, s.course_id DESC"
            case .scrap: "c.scrap_count DESC, c.created_at DESC, c.id DESC"
            case .distance: "c.distance_m, c.id"
            }
        // A walk reads a page's worth of rows, and only runs for keywords so common that a page
        // comes after a few hundred: the plan must follow the index, never sort every match
        // (the planner, pricing `@>` low and the matches few, sorted them: 560 ms–1.4 s for a
        // scrap-order walk on 100,000 courses).
        try execute("SET LOCAL cursor_tuple_fraction = 0.001")
        try execute("SET LOCAL enable_sort = off")
        try execute("SET LOCAL max_parallel_workers_per_gather = 0")
        try query(
            PostgresQuery(
                unsafeSQL:
                    "DECLARE runnect_search_walk NO SCROLL CURSOR FOR SELECT \(PostgresSearch.columns) \(filter) ORDER BY \(order)",
                binds: bindings))
        var ids: [Int64] = []
        while ids.count < wanted {
            let rows = try query(PostgresQuery(unsafeSQL: "FETCH \(plans.walkBatch) FROM runnect_search_walk")).rows
            for row in rows {
                guard let match = try search.match(row), accept(match) else { continue }
                ids.append(match.id)
                if ids.count == wanted { break }
            }
            if rows.count < plans.walkBatch { break }
        }
        try execute("CLOSE runnect_search_walk")
        for setting in ["enable_sort", "max_parallel_workers_per_gather", "cursor_tuple_fraction"] {
            try execute("RESET \(setting)")
        }
        return ids
    }
}

/// One search's keywords, as the postings and the exact check see them.
struct PostgresSearch {
    let words: [KoreanText.Word]

    /// A course's search text and the figures its orders read; `s` and `c` to select from.
    static let columns = """
        s.course_id, s.created_ms, s.title, s.description, s.departure, c.scrap_count, c.distance_m
        FROM course_search s JOIN course c ON c.id = s.course_id
        """

    /// A course matching every keyword, with how many are in its title and in its departure.
    struct Match {
        var id: Int64
        var createdMs: Int64
        var scrapCount: Int
        var distanceMeters: Double
        var inTitle: Int
        var inDeparture: Int
    }

    /// One relevance tier: the matches with exactly `inTitle` keywords in the title and
    /// `inDeparture` in the departure.
    struct Tier {
        var inTitle: Int
        var inDeparture: Int

        func holds(_ match: Match) -> Bool { match.inTitle == inTitle && match.inDeparture == inDeparture }
    }

    /// A keyword's lookup grams (``KoreanText/lookupGrams(for:)``) as the index tokens of the
    /// field with letter `prefix` (`t`, `d`, `p`, as `SearchIndex` writes them).
    func tokens(_ word: KoreanText.Word, field prefix: UInt8) -> [String] {
        KoreanText.lookupGrams(for: word).map { KoreanText.token(prefix: prefix, gram: $0) }
    }

    /// What the index can tell of the matches (of `tier`, when given), as clauses all of
    /// which hold, each met by any of its token lists, each list wholly in `tokens`: every
    /// keyword's grams in some field; for a tier, the grams of `inTitle` keywords in the title
    /// (any `inTitle` of them; all of them when `inTitle` is the keyword count), and as much for
    /// the departure. Supersets: the exact check decides.
    func clauses(tier: Tier? = nil) -> [[[String]]] {
        var clauses = words.map { word in [0x74, 0x64, 0x70].map { tokens(word, field: $0) } }
        if let tier {
            for (count, prefix) in [(tier.inTitle, UInt8(0x74)), (tier.inDeparture, UInt8(0x70))] where count > 0 {
                clauses.append(
                    KeywordSubsets.of(words.count, size: count).map { subset in
                        subset.flatMap { tokens(words[$0], field: prefix) }
                    })
            }
        }
        // A clause with an empty list holds for every entry: nothing to ask of the index.
        return clauses.filter { clause in !clause.contains(where: \.isEmpty) }
    }

    /// Clauses as `runnect_search_candidates` takes them: one string a clause, its token lists
    /// separated by `|`, tokens by a space (tokens are `[0-9a-z]`).
    static func encoded(_ clauses: [[[String]]]) -> [String] {
        clauses.map { clause in clause.map { $0.joined(separator: " ") }.joined(separator: "|") }
    }

    /// Clauses as SQL conditions on `course_search s`, values bound after what `bindings` holds
    /// (tested on each row read: row-level security keeps them out of an index scan).
    static func conditions(_ clauses: [[[String]]], _ bindings: inout PostgresBindings) -> [String] {
        clauses.map { clause in
            "("
                + clause.map { tokens in
                    bindings.append(tokens)
                    return "s.tokens @> $\(bindings.count)::text[]"
                }.joined(separator: " OR ") + ")"
        }
    }

    /// `strpos` tests of the plain keywords (no initial consonant), bound after what `bindings` holds.
    func plainConditions(_ bindings: inout PostgresBindings) -> [String] {
        words.filter { $0.kind == .plain }.map { word in
            bindings.append(word.text)
            let n = "$\(bindings.count)"
            return "(strpos(s.title, \(n)) > 0 OR strpos(s.description, \(n)) > 0 OR strpos(s.departure, \(n)) > 0)"
        }
    }

    /// A row of ``columns`` when it matches every keyword exactly.
    func match(_ row: PostgresRow) throws -> Match? {
        let (id, createdMs, title, description, departure, scrapCount, distance) = try row.decode(
            (Int64, Int64, String, String, String, Int, Double).self)
        var inTitle = 0
        var inDeparture = 0
        for word in words {
            let title = KoreanText.contains(title, word: word.text)
            let departure = KoreanText.contains(departure, word: word.text)
            guard title || departure || KoreanText.contains(description, word: word.text) else { return nil }
            if title { inTitle += 1 }
            if departure { inDeparture += 1 }
        }
        return Match(
            id: id, createdMs: createdMs, scrapCount: scrapCount, distanceMeters: distance, inTitle: inTitle,
            inDeparture: inDeparture)
    }
}
