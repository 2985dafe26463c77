import Foundation
import PostgresNIO
import RunnectStore

extension PostgresTransaction {
    // MARK: - Search

    /// The same answers as SQLite's search (`SearchIndex.search`), by two plans:
    ///
    /// - **Sort the candidates**: the postings give the courses holding every keyword's grams in
    ///   some field, among those the user may read (`runnect_search_candidates`); their text is
    ///   read, checked exactly and sorted here. Relevance always, and any order when the
    ///   candidates are fewer than ``PostgresSearchPlans/denseCandidateCount``.
    /// - **Walk an index** in the order asked (`course_search (created_ms, course_id)` for date,
    ///   `course`'s list indexes for scrap and distance) through a cursor, checking each course,
    ///   until the page is full: for keywords so common that the page comes after a few hundred
    ///   rows.
    ///
    /// The exact check is ``KoreanText/contains(_:word:)``, the reference definition of a match,
    /// run here on each row read; a plain keyword (no initial consonant) is also tested in SQL
    /// (`strpos`, a bound value) so that rows that cannot match are never sent.
    func searchIDs(keywords: String, scope: SearchScope, sort: CourseSort, limit: Int, offset: Int) throws -> [Int64] {
        let search = PostgresSearch(words: KoreanText.words(in: keywords))
        guard !search.words.isEmpty, limit > 0 else { return [] }
        let offset = max(0, offset)
        if sort != .relevance {
            let dense = plans.denseCandidateCount
            let some = try candidateIDs(search, scope: scope, upTo: dense)
            if some.count >= dense {
                return try walk(search, scope: scope, sort: sort, wanted: offset + limit).dropFirst(offset).map { $0 }
            }
            return page(try matches(search, scope: scope, among: some), sort: sort, limit: limit, offset: offset)
        }
        let all = try candidateIDs(search, scope: scope, upTo: Int(Int32.max))
        return page(try matches(search, scope: scope, among: all), sort: sort, limit: limit, offset: offset)
    }

    /// Up to `limit` ids of courses holding every keyword's grams, that the user may read in `scope`.
    func candidateIDs(_ search: PostgresSearch, scope: SearchScope, upTo limit: Int) throws -> [Int64] {
        try column(
            Int64.self,
            "SELECT runnect_search_candidates(\(search.gramLists), \(scope == .shared), \(Int32(clamping: limit)))")
    }

    /// The courses of `ids` matching every keyword, with what they are sorted by.
    func matches(_ search: PostgresSearch, scope: SearchScope, among ids: [Int64]) throws -> [PostgresSearch.Match] {
        guard !ids.isEmpty else { return [] }
        var bindings = PostgresBindings()
        bindings.append(ids)
        var conditions = ["s.course_id = ANY($1)"]
        if scope == .shared { conditions.append("c.is_uploaded") }
        conditions += search.plainConditions(&bindings)
        let sql = "SELECT \(PostgresSearch.columns) WHERE \(conditions.joined(separator: " AND "))"
        return try query(PostgresQuery(unsafeSQL: sql, binds: bindings)).rows.compactMap(search.match)
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

    /// The first `wanted` matches in `sort` order (not relevance), walking an index through a cursor.
    func walk(_ search: PostgresSearch, scope: SearchScope, sort: CourseSort, wanted: Int) throws -> [Int64] {
        var bindings = PostgresBindings()
        var conditions = scope == .shared ? ["s.is_uploaded", "c.is_uploaded"] : []
        conditions += search.plainConditions(&bindings)
        let order =
            switch sort {
            case .date, .relevance: "s.created_ms DESC, s.course_id DESC"
            case .scrap: "c.scrap_count DESC, c.created_at DESC, c.id DESC"
            case .distance: "c.distance_m, c.id"
            }
        let filter = conditions.isEmpty ? "" : "WHERE \(conditions.joined(separator: " AND "))"
        try query(
            PostgresQuery(
                unsafeSQL:
                    "DECLARE runnect_search_walk NO SCROLL CURSOR FOR SELECT \(PostgresSearch.columns) \(filter) ORDER BY \(order)",
                binds: bindings))
        var ids: [Int64] = []
        while ids.count < wanted {
            let rows = try query(PostgresQuery(unsafeSQL: "FETCH \(plans.walkBatch) FROM runnect_search_walk")).rows
            for row in rows {
                guard let match = try search.match(row) else { continue }
                ids.append(match.id)
                if ids.count == wanted { break }
            }
            if rows.count < plans.walkBatch { break }
        }
        try execute("CLOSE runnect_search_walk")
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

    init(words: [KoreanText.Word]) {
        self.words = words
    }

    /// Each keyword's lookup grams (``KoreanText/lookupGrams(for:)``) as index tokens without
    /// their field letter, space-separated: the argument of `runnect_search_candidates`.
    var gramLists: [String] {
        words.map { word in
            KoreanText.lookupGrams(for: word).map { String(KoreanText.token(prefix: 0x74, gram: $0).dropFirst()) }
                .joined(separator: " ")
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
