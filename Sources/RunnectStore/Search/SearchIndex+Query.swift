import GRDB

extension SearchIndex {
    // MARK: - Searching

    /// The thresholds that choose between query plans. Every plan returns the same ids; tests
    /// move the thresholds to run each plan on small stores.
    struct Plans: Sendable {
        /// Candidate count from which scrap and distance orders walk `course` along its list
        /// index instead of sorting the candidates, and relevance walks its score tiers: dense
        /// matches fill a page after a few hundred rows.
        var denseCandidateCount = 2_000
        /// Out-of-order courses (see ``SearchIndex``) from which date and relevance sort their
        /// candidates instead of walking them in id order.
        var maxOutOfOrder = 2_000
        /// Relevance is walked tier by tier for up to this many keywords (`(k + 1)²` tiers);
        /// longer queries, whose matches the AND makes few, sort their candidates.
        var maxTieredWords = 3

        static let standard = Plans()
    }

    /// Out-of-order courses, counted up to `limit`.
    static func outOfOrderCount(_ db: Database, upTo limit: Int) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT count(*) FROM (
                        SELECT 1 FROM course_search INDEXED BY course_search_out_of_order
                        WHERE in_order = 0 LIMIT ?
                    )
                    """),
            arguments: [limit]) ?? 0
    }

    /// The ids of the courses matching every keyword, in `sort` order, one page of them.
    ///
    /// - Parameters:
    ///   - keywords: What the user typed, split on whitespace. Blank input matches nothing
    ///     (listing without keywords is ``CourseStore/list(_:sort:page:)``'s job): `[]`.
    ///   - scope: `.shared` for uploaded courses only, `.all` for every course.
    ///   - user: The searching user; reserved for per-user filters, unused today.
    ///   - sort: `relevance` ranks by the number of keywords found in the title, then the number
    ///     found in the departure, then newest first; `date` is newest first; `scrap` most
    ///     scrapped first, then newest; `distance` shortest first. Ties end with the id, so
    ///     pages are stable.
    ///   - limit: Page size; `[]` when not positive.
    ///   - offset: Matches skipped before the page; negative counts as 0.
    /// - Returns: Course ids, best first.
    /// - Complexity: Date and relevance pages cost about `offset + limit` rows per score tier
    ///   visited, however many courses match; scrap and distance pages cost the same for common
    ///   keywords and a sort of the matches for rare ones.
    static func search(
        _ db: Database, keywords: String, scope: SearchScope, user: String, sort: CourseSort,
        limit: Int, offset: Int
    ) throws -> [Int64] {
        try search(
            db, keywords: keywords, scope: scope, user: user, sort: sort, limit: limit, offset: offset,
            plans: .standard)
    }

    /// ``search(_:keywords:scope:user:sort:limit:offset:)`` with chosen plan thresholds.
    static func search(
        _ db: Database, keywords: String, scope: SearchScope, user: String, sort: CourseSort,
        limit: Int, offset: Int, plans: Plans
    ) throws -> [Int64] {
        let words = KoreanText.words(in: keywords)
        guard !words.isEmpty, limit > 0 else { return [] }
        let query = Query(words: words, scope: scope, plans: plans)
        var page = Page(limit: limit, skip: max(0, offset))
        switch sort {
        case .date, .relevance:
            let relevance = sort == .relevance
            let order = relevance ? query.relevanceOrder : Fragment(sql: "s.created_ms DESC, s.course_id DESC")
            let outOfOrder = try outOfOrderCount(db, upTo: plans.maxOutOfOrder)
            let sortsCandidates =
                try outOfOrder >= plans.maxOutOfOrder
                || (relevance && (words.count > plans.maxTieredWords || !query.isDense(db)))
            if sortsCandidates {
                return try query.sortCandidates(db, order: order, limit: limit, offset: page.skip)
            }
            let walker = Walker(query: query, outOfOrder: outOfOrder)
            if relevance {
                try walker.fillByRelevance(&page, db)
            } else {
                try walker.fill(&page, db, tier: query.anyTier, isLast: true)
            }
            return page.ids
        case .scrap, .distance:
            let order = try listOrder(db, sort)
            if try query.isDense(db) {
                return try query.walkCourse(db, order: order, limit: limit, offset: page.skip)
            }
            return try query.sortCandidates(db, order: Fragment(sql: order.terms), limit: limit, offset: page.skip)
        }
    }

    /// The page being filled: ids so far, and how many matches are still to be skipped.
    struct Page {
        var limit: Int
        var skip: Int
        var ids: [Int64] = []

        var need: Int { limit - ids.count }
        var isFull: Bool { ids.count >= limit }
    }

    /// A SQL fragment and the values bound to its `?`s, in order.
    struct Fragment {
        var sql: String
        var arguments: StatementArguments = []

        static func && (lhs: Fragment, rhs: Fragment) -> Fragment {
            Fragment(sql: "\(lhs.sql) AND \(rhs.sql)", arguments: lhs.arguments + rhs.arguments)
        }
    }

    /// A slice of the results that comes whole before the next one: the FTS5 expression that
    /// proposes its candidates (a superset), the exact SQL test of membership, and its order,
    /// newest first (walked) unless `order` says otherwise (sorted).
    struct Tier {
        var expression: String
        var filter: Fragment?
        var order: Fragment?
    }

    /// One keyword, as the index and the SQL see it.
    struct Term {
        var word: KoreanText.Word
        var grams: [KoreanText.Gram]
        /// Whether the index alone answers "does field F contain the word": a single gram, for a
        /// word that is not mixed. Only exact terms may be negated in FTS5.
        var isExact: Bool

        init(_ word: KoreanText.Word) {
            self.word = word
            grams = KoreanText.lookupGrams(for: word)
            isExact = grams.count == 1 && word.kind != .mixed
        }

        /// `1` when the word occurs in `column` (normalised text), else `0`: `instr` for a plain
        /// word, `GLOB` with syllable classes for one with initial consonants (exact on the text
        /// itself, so no initials projection needs storing). The word is a bound value.
        func contains(_ column: String) -> Fragment {
            if word.kind == .plain {
                return Fragment(sql: "(instr(\(column), ?) > 0)", arguments: [word.text])
            }
            return Fragment(sql: "(\(column) GLOB ?)", arguments: [KoreanText.globPattern(for: word.text)])
        }

        var inAnyField: Fragment {
            let parts = ["s.title", "s.description", "s.departure"].map(contains)
            return Fragment(
                sql: "(" + parts.map(\.sql).joined(separator: " OR ") + ")",
                arguments: parts.reduce(into: StatementArguments()) { $0 += $1.arguments })
        }

        /// The FTS5 expression for the word in any field, or in `field` only: its grams, all in
        /// one field.
        func expression(field: Field? = nil) -> String {
            guard let field else {
                return "(" + Field.allCases.map { expression(field: $0) }.joined(separator: " OR ") + ")"
            }
            return "("
                + grams.map { KoreanText.token(prefix: field.prefix, gram: $0) }.joined(separator: " AND ") + ")"
        }
    }

    /// The fields a keyword is looked for in, with their token letters.
    enum Field: CaseIterable {
        case title, description, departure

        var prefix: UInt8 {
            switch self {
            case .title: NormalizedRow.titlePrefix
            case .description: NormalizedRow.descriptionPrefix
            case .departure: NormalizedRow.departurePrefix
            }
        }
    }

    /// Everything about one search but its order.
    struct Query {
        var terms: [Term]
        var scope: SearchScope
        var plans: Plans

        init(words: [KoreanText.Word], scope: SearchScope, plans: Plans = .standard) {
            terms = words.map(Term.init)
            self.scope = scope
            self.plans = plans
        }

        var scopeSQL: String { scope == .shared ? "c.is_uploaded = 1" : "1" }

        /// Every keyword in some field, exactly.
        var matchesAll: Fragment {
            let parts = terms.map(\.inAnyField)
            return Fragment(
                sql: parts.map(\.sql).joined(separator: " AND "),
                arguments: parts.reduce(into: StatementArguments()) { $0 += $1.arguments })
        }

        /// The FTS5 expression every match satisfies.
        var anyExpression: String {
            terms.map { $0.expression() }.joined(separator: " AND ")
        }

        var anyTier: Tier { Tier(expression: anyExpression, filter: nil) }

        /// Number of keywords found in `column`, as SQL.
        func score(_ column: String) -> Fragment {
            let parts = terms.map { $0.contains(column) }
            return Fragment(
                sql: "(" + parts.map(\.sql).joined(separator: " + ") + ")",
                arguments: parts.reduce(into: StatementArguments()) { $0 += $1.arguments })
        }

        /// Relevance as an ORDER BY, for sorting candidates.
        var relevanceOrder: Fragment {
            let title = score("s.title")
            let departure = score("s.departure")
            return Fragment(
                sql: "\(title.sql) DESC, \(departure.sql) DESC, s.created_ms DESC, s.course_id DESC",
                arguments: title.arguments + departure.arguments)
        }

        /// Number of keywords in the title equal to `inTitle`, and (if given) in the departure
        /// equal to `inDeparture`, exactly.
        func scoreFilter(inTitle: Int, inDeparture: Int? = nil) -> Fragment {
            let title = score("s.title")
            var filter = Fragment(sql: "\(title.sql) = ?", arguments: title.arguments + [inTitle])
            if let inDeparture {
                let departure = score("s.departure")
                filter = filter && Fragment(sql: "\(departure.sql) = ?", arguments: departure.arguments + [inDeparture])
            }
            return filter
        }

        /// The courses with `inTitle` keywords in the title, best departure score first, then
        /// newest: a cheap expression on title tokens (which are few) that may propose more.
        func titleGroup(_ inTitle: Int) -> Tier {
            let part = exactly(inTitle, in: .title)
            var expression = inTitle > 0 ? part.positive! : anyExpression
            if let no = part.negative { expression = "(\(expression)) NOT (\(no))" }
            let departure = score("s.departure")
            return Tier(
                expression: expression, filter: scoreFilter(inTitle: inTitle),
                order: Fragment(
                    sql: "\(departure.sql) DESC, s.created_ms DESC, s.course_id DESC", arguments: departure.arguments))
        }

        /// The courses scoring exactly `(inTitle, inDeparture)`, newest first.
        func scoreTier(inTitle: Int, inDeparture: Int) -> Tier {
            let k = terms.count
            // All keywords in one field already says they are in some field.
            var positive = inTitle == k || inDeparture == k ? [] : [anyExpression]
            var negative: [String] = []
            for (count, field) in [(inTitle, Field.title), (inDeparture, Field.departure)] {
                let part = exactly(count, in: field)
                if let yes = part.positive { positive.append(yes) }
                if let no = part.negative { negative.append(no) }
            }
            let expression =
                "(" + positive.joined(separator: " AND ") + ")" + negative.map { " NOT (\($0))" }.joined()
            return Tier(
                expression: expression, filter: scoreFilter(inTitle: inTitle, inDeparture: inDeparture), order: nil)
        }

        /// FTS5 parts for "exactly `count` keywords in `column`": a positive expression to AND
        /// and a negative one to NOT. Only exact terms are negated, so both are supersets of the
        /// tier; the SQL filter makes it exact.
        func exactly(_ count: Int, in field: Field) -> (positive: String?, negative: String?) {
            let k = terms.count
            if count == k {
                return (terms.map { $0.expression(field: field) }.joined(separator: " AND "), nil)
            }
            if count == 0 {
                let exact = terms.filter(\.isExact).map { $0.expression(field: field) }
                return (nil, exact.isEmpty ? nil : exact.joined(separator: " OR "))
            }
            var alternatives: [String] = []
            for subset in Self.subsets(of: k, size: count) {
                let present = subset.map { terms[$0].expression(field: field) }.joined(separator: " AND ")
                let absent = (0..<k).filter { !subset.contains($0) && terms[$0].isExact }
                    .map { terms[$0].expression(field: field) }
                alternatives.append(
                    absent.isEmpty ? "(\(present))" : "((\(present)) NOT (\(absent.joined(separator: " OR "))))")
            }
            return ("(" + alternatives.joined(separator: " OR ") + ")", nil)
        }

        static func subsets(of n: Int, size: Int) -> [[Int]] {
            guard size > 0 else { return [[]] }
            guard size <= n else { return [] }
            var result: [[Int]] = []
            func extend(_ prefix: [Int], from start: Int) {
                if prefix.count == size {
                    result.append(prefix)
                    return
                }
                for i in start..<n { extend(prefix + [i], from: i + 1) }
            }
            extend([], from: 0)
            return result
        }

        // MARK: Plans

        /// FTS5 rows joined to their text and course, filtered exactly.
        func fromCandidates(_ tier: Tier) -> Fragment {
            var filter = Fragment(sql: "t.course_search_token MATCH ?", arguments: [tier.expression])
            filter = filter && Fragment(sql: scopeSQL) && matchesAll
            if let extra = tier.filter { filter = filter && extra }
            return Fragment(
                sql: """
                    FROM course_search_token t
                    CROSS JOIN course_search s ON s.course_id = t.rowid
                    CROSS JOIN course c ON c.id = s.course_id
                    WHERE \(filter.sql)
                    """,
                arguments: filter.arguments)
        }

        /// The out-of-order courses of a tier, from their own index, filtered exactly.
        func fromOutOfOrder(_ tier: Tier) -> Fragment {
            var filter = Fragment(sql: "s.in_order = 0") && Fragment(sql: scopeSQL) && matchesAll
            if let extra = tier.filter { filter = filter && extra }
            return Fragment(
                sql: """
                    FROM course_search s INDEXED BY course_search_out_of_order
                    CROSS JOIN course c ON c.id = s.course_id
                    WHERE \(filter.sql)
                    """,
                arguments: filter.arguments)
        }

        /// Candidates of an FTS5 expression, counted up to `limit`.
        func count(_ db: Database, _ expression: String, upTo limit: Int) throws -> Int {
            try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT count(*) FROM (
                            SELECT 1 FROM course_search_token WHERE course_search_token MATCH ? LIMIT ?
                        )
                        """),
                arguments: [expression, limit]) ?? 0
        }

        /// Whether at least ``Plans/denseCandidateCount`` courses are candidates, counting no
        /// further.
        func isDense(_ db: Database) throws -> Bool {
            try count(db, anyExpression, upTo: plans.denseCandidateCount) >= plans.denseCandidateCount
        }

        /// All candidates, checked, ordered and paged in SQL: for rare keywords.
        func sortCandidates(_ db: Database, order: Fragment, limit: Int, offset: Int) throws -> [Int64] {
            let from = fromCandidates(anyTier)
            return try Int64.fetchAll(
                db.cachedStatement(sql: "SELECT c.id \(from.sql) ORDER BY \(order.sql) LIMIT ? OFFSET ?"),
                arguments: from.arguments + order.arguments + [limit, offset])
        }

        /// `course` walked along its list index, each row checked: for common keywords. With
        /// `.all`, shared and private courses are two index ranges merged (`UNION ALL` ordered
        /// by the same keys), as the store's indexes lead with `is_uploaded`.
        func walkCourse(_ db: Database, order: ListOrder, limit: Int, offset: Int) throws -> [Int64] {
            let match = matchesAll
            func branch(_ uploaded: Int) -> String {
                """
                SELECT c.id, \(order.keys) FROM course c
                CROSS JOIN course_search s ON s.course_id = c.id
                WHERE c.is_uploaded = \(uploaded) AND \(match.sql)
                """
            }
            let sql: String
            var arguments = match.arguments
            switch scope {
            case .shared:
                sql = "\(branch(1)) ORDER BY \(order.terms) LIMIT ? OFFSET ?"
            case .all:
                sql = "\(branch(1)) UNION ALL \(branch(0)) ORDER BY \(order.positions) LIMIT ? OFFSET ?"
                arguments += match.arguments
            }
            arguments += [limit, offset]
            return try Int64.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
        }
    }

    /// Fills pages tier by tier, each newest first: the in-order courses by walking the FTS5
    /// rowids (course ids) downwards, merged with the out-of-order ones (usually none).
    struct Walker {
        var query: Query
        /// Out-of-order courses in the store (fewer than ``Plans/maxOutOfOrder``).
        var outOfOrder: Int

        /// Adds the tier's share of the page. A tier before the page is counted, to be skipped
        /// whole, unless it is the last one.
        func fill(_ page: inout Page, _ db: Database, tier: Tier, isLast: Bool = false) throws {
            guard !page.isFull else { return }
            let from = query.fromCandidates(tier)
            if page.skip > 0, !isLast {
                let count = try Int.fetchOne(
                    db.cachedStatement(sql: "SELECT count(*) \(from.sql)"), arguments: from.arguments) ?? 0
                if count <= page.skip {
                    page.skip -= count
                    return
                }
            }
            if let order = tier.order {
                page.ids += try Int64.fetchAll(
                    db.cachedStatement(sql: "SELECT c.id \(from.sql) ORDER BY \(order.sql) LIMIT ? OFFSET ?"),
                    arguments: from.arguments + order.arguments + [page.need, page.skip])
            } else if outOfOrder == 0 {
                page.ids += try Int64.fetchAll(
                    db.cachedStatement(sql: "SELECT c.id \(from.sql) ORDER BY t.rowid DESC LIMIT ? OFFSET ?"),
                    arguments: from.arguments + [page.need, page.skip])
            } else {
                page.ids += try mergedPage(db, tier: tier, from: from, skip: page.skip, need: page.need)
            }
            page.skip = 0
        }

        /// Relevance, best first: one title group after another (all keywords in the title
        /// first); a group with few candidates is sorted by departure score and date at once, a
        /// dense one is walked one departure score after the other.
        func fillByRelevance(_ page: inout Page, _ db: Database) throws {
            let k = query.terms.count
            let dense = query.plans.denseCandidateCount
            for inTitle in stride(from: k, through: 0, by: -1) {
                let group = query.titleGroup(inTitle)
                let candidates = try query.count(db, group.expression, upTo: dense)
                if candidates == 0 { continue }
                if candidates < dense {
                    try fill(&page, db, tier: group)
                } else {
                    for inDeparture in stride(from: k, through: 0, by: -1) {
                        try fill(&page, db, tier: query.scoreTier(inTitle: inTitle, inDeparture: inDeparture))
                    }
                }
                if page.isFull { return }
            }
        }

        /// One tier's page when some courses are out of order. The in-order stream is walked
        /// first; when it fills `skip + need`, only out-of-order courses at least as new as its
        /// last one can be on the page (a short range of their index); when it runs dry, the
        /// tier is small and is simply sorted.
        private func mergedPage(_ db: Database, tier: Tier, from: Fragment, skip: Int, need: Int) throws
            -> [Int64]
        {
            let inOrder = try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT s.created_ms, c.id \(from.sql) AND s.in_order = 1 ORDER BY t.rowid DESC LIMIT ?"),
                arguments: from.arguments + [skip + need]
            ).map { (row: Row) -> (Int64, Int64) in (row[0], row[1]) }
            guard inOrder.count == skip + need, let oldest = inOrder.last?.0 else {
                return try Int64.fetchAll(
                    db.cachedStatement(
                        sql: "SELECT c.id \(from.sql) ORDER BY s.created_ms DESC, s.course_id DESC LIMIT ? OFFSET ?"),
                    arguments: from.arguments + [need, skip])
            }
            let others = query.fromOutOfOrder(tier)
            let outOfOrder = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT s.created_ms, c.id \(others.sql) AND s.created_ms >= ?
                        ORDER BY s.created_ms DESC, s.course_id DESC LIMIT ?
                        """),
                arguments: others.arguments + [oldest, skip + need]
            ).map { (row: Row) -> (Int64, Int64) in (row[0], row[1]) }
            return Array(Self.mergeNewestFirst(inOrder, outOfOrder).dropFirst(skip).prefix(need))
        }

        /// Two lists of `(created_ms, id)`, each newest first, merged newest first.
        static func mergeNewestFirst(_ a: [(Int64, Int64)], _ b: [(Int64, Int64)]) -> [Int64] {
            var merged: [Int64] = []
            merged.reserveCapacity(a.count + b.count)
            var i = 0
            var j = 0
            while i < a.count || j < b.count {
                if j == b.count || (i < a.count && (a[i].0, a[i].1) > (b[j].0, b[j].1)) {
                    merged.append(a[i].1)
                    i += 1
                } else {
                    merged.append(b[j].1)
                    j += 1
                }
            }
            return merged
        }
    }

    /// A list order written three ways: as terms on `c`, as selected keys, and as the positions
    /// of those keys (for a compound SELECT, whose ORDER BY cannot name table columns).
    struct ListOrder {
        var terms: String
        var keys: String
        var positions: String
    }

    static func listOrder(_ db: Database, _ sort: CourseSort) throws -> ListOrder {
        switch sort {
        case .scrap:
            let scraps = try scrapCountSQL(db)
            return ListOrder(
                terms: "\(scraps) DESC, c.created_at DESC, c.id DESC", keys: "\(scraps), c.created_at",
                positions: "2 DESC, 3 DESC, 1 DESC")
        case .distance:
            return ListOrder(terms: "c.distance_m, c.id", keys: "c.distance_m", positions: "2, 1")
        case .date, .relevance:
            return ListOrder(terms: "c.created_at DESC, c.id DESC", keys: "c.created_at", positions: "2 DESC, 1 DESC")
        }
    }

    /// The scrap count of course `c`: the `scrap_count` column when the store keeps one, else
    /// counted from `scrap`.
    static func scrapCountSQL(_ db: Database) throws -> String {
        let hasColumn = try db.columns(in: "course").contains { $0.name.lowercased() == "scrap_count" }
        return hasColumn ? "c.scrap_count" : "(SELECT count(*) FROM scrap WHERE scrap.course_id = c.id)"
    }
}
