import GRDB

/// Everything about one search but its order and page: the keywords as SQL conditions and FTS5
/// expressions, and the two ways of reading a page of matches (``sorted(_:by:limit:offset:)``
/// and the walks).
///
/// User text only ever reaches SQLite as bound values (`instr` needles, `GLOB` patterns); the
/// FTS5 expressions are made of the index's own tokens and are bound too.
struct SQLiteSearchQuery {
    /// Some of the matches (all of them, a ``SearchTier``, a title count's tiers): the FTS5
    /// expression proposing their candidates (a superset), and the exact SQL test of membership.
    struct Selection {
        var expression: String
        var filter: SQL?
    }

    /// The page being filled tier by tier: ids so far, and how many matches are still to skip.
    struct Page {
        var limit: Int
        var skip: Int
        var ids: [Int64] = []

        var need: Int { limit - ids.count }
        var isFull: Bool { ids.count >= limit }
    }

    let terms: [SQLiteSearchTerm]
    let scope: SearchScope
    /// Who searches: with ``SearchScope/all``, their own private courses are read beside the
    /// shared ones, never another runner's; `nil` reads every course (tests of the index alone).
    let reader: String?

    init(words: [KoreanText.Word], scope: SearchScope, reader: String? = nil) {
        terms = words.map(SQLiteSearchTerm.init)
        self.scope = scope
        self.reader = reader
    }

    /// The condition on `c` that keeps the courses of the scope the reader may read; `nil` for all.
    var readable: SQL? {
        switch (scope, reader) {
        case (.shared, _): "c.is_uploaded = 1"
        case (.all, let reader?): "(c.is_uploaded = 1 OR c.owner = \(reader))"
        case (.all, nil): nil
        }
    }

    // MARK: - SQL

    /// Every keyword in some field, exactly (`s` is the course's `course_search` row).
    var matchesAll: SQL {
        terms.map(\.inAnyField).joined(separator: " AND ")
    }

    /// The FTS5 expression every match satisfies: each keyword's grams in some field.
    var anyExpression: String {
        terms.map(\.expressionInAnyField).joined(separator: " AND ")
    }

    /// All the matches, as one selection.
    var allMatches: Selection { Selection(expression: anyExpression) }

    /// The number of keywords found in `field`.
    func score(_ field: SearchField) -> SQL {
        "(" + terms.map { $0.occurs(in: field) }.joined(separator: " + ") + ")"
    }

    /// Relevance as an ORDER BY: keywords in the title, then in the departure, then newest.
    var relevanceOrder: SQL {
        "\(score(.title)) DESC, \(score(.departure)) DESC, s.created_ms DESC, s.course_id DESC"
    }

    /// The matches of `selection` among the FTS5 candidates, joined to their text (`s`) and course
    /// (`c`): a FROM … WHERE to select from.
    func candidates(_ selection: Selection) -> SQL {
        """
        FROM course_search_token t
        CROSS JOIN course_search s ON s.course_id = t.rowid
        CROSS JOIN course c ON c.id = s.course_id
        WHERE \(members(of: selection, among: "t.course_search_token MATCH \(selection.expression)"))
        """
    }

    /// The out-of-order matches of `selection` (see ``SQLiteSearchIndex``), from their own index.
    func outOfOrderCandidates(_ selection: Selection) -> SQL {
        """
        FROM course_search s INDEXED BY course_search_out_of_order
        CROSS JOIN course c ON c.id = s.course_id
        WHERE \(members(of: selection, among: "s.in_order = 0"))
        """
    }

    /// The courses of `candidates` in the scope that match every keyword and the selection's filter.
    private func members(of selection: Selection, among candidates: SQL) -> SQL {
        var conditions = [candidates]
        if let readable { conditions.append(readable) }
        conditions.append(matchesAll)
        if let filter = selection.filter { conditions.append(filter) }
        return conditions.joined(separator: " AND ")
    }

    /// FTS5 candidates of `expression`, counted up to `limit`.
    func candidateCount(_ db: Database, _ expression: String, upTo limit: Int) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(
                literal: """
                    SELECT count(*) FROM (
                        SELECT 1 FROM course_search_token WHERE course_search_token MATCH \(expression) LIMIT \(limit)
                    )
                    """)) ?? 0
    }

    // MARK: - Plan 1: sort the candidates

    /// Every match, ordered and paged in SQL. Costs a check per FTS5 candidate, so it serves
    /// rare keywords; common ones walk an index instead.
    func sorted(_ db: Database, by order: SQL, limit: Int, offset: Int) throws -> [Int64] {
        try Int64.fetchAll(
            db.cachedStatement(
                literal: "SELECT c.id \(candidates(allMatches)) ORDER BY \(order) LIMIT \(limit) OFFSET \(offset)"))
    }

    // MARK: - Plan 2: walk an index in the order asked, stop at the page

    /// A list order of `course` written three ways: as ORDER BY terms, as the keys a walk
    /// selects, and as the positions of those keys (a compound SELECT cannot order by columns).
    /// Both orders have a list index on `course` leading with `is_uploaded`.
    struct ListOrder {
        var terms: SQL
        var keys: SQL
        var positions: SQL

        static let scrap = ListOrder(
            terms: "c.scrap_count DESC, c.created_at DESC, c.id DESC", keys: "c.scrap_count, c.created_at",
            positions: "2 DESC, 3 DESC, 1 DESC")
        static let distance = ListOrder(terms: "c.distance_m, c.id", keys: "c.distance_m", positions: "2, 1")
    }

    /// `course` walked along its list index, each row checked. With `.all`, shared and private
    /// courses are two ranges of the index, merged by a `UNION ALL` ordered by the same keys.
    func walkCourse(_ db: Database, order: ListOrder, limit: Int, offset: Int) throws -> [Int64] {
        func range(uploaded: Bool) -> SQL {
            // Private courses: the reader's own only.
            let owned: SQL = !uploaded ? reader.map { "c.owner = \($0) AND " } ?? "" : ""
            return """
                SELECT c.id, \(order.keys) FROM course c
                CROSS JOIN course_search s ON s.course_id = c.id
                WHERE c.is_uploaded = \(sql: uploaded ? "1" : "0") AND \(owned)\(matchesAll)
                """
        }
        let sql: SQL =
            switch scope {
            case .shared: "\(range(uploaded: true)) ORDER BY \(order.terms) LIMIT \(limit) OFFSET \(offset)"
            case .all:
                "\(range(uploaded: true)) UNION ALL \(range(uploaded: false)) ORDER BY \(order.positions) LIMIT \(limit) OFFSET \(offset)"
            }
        return try Int64.fetchAll(db.cachedStatement(literal: sql))
    }

    /// Adds `selection`'s share of the page, newest first: its in-order courses by walking the FTS5
    /// rowids (course ids, in date order) downwards, merged with its out-of-order ones (usually
    /// none). A tier before the page is counted and skipped whole, unless it is the last one.
    func fillNewestFirst(_ page: inout Page, _ db: Database, selection: Selection, isLast: Bool) throws {
        let from = candidates(selection)
        guard try !skipsWhole(&page, db, from, isLast: isLast) else { return }
        let wanted = page.skip + page.need
        let inOrder = try Self.newestFirst(
            db, "SELECT s.created_ms, c.id \(from) AND s.in_order = 1 ORDER BY t.rowid DESC LIMIT \(wanted)")
        // When the in-order courses fill the page, only out-of-order ones at least as new as the
        // last of them can be on it: a short range of their index. When they run dry, the tier's
        // candidates were few: its out-of-order ones are among them.
        let outOfOrder: [Dated]
        if inOrder.count == wanted {
            outOfOrder = try Self.newestFirst(
                db,
                """
                SELECT s.created_ms, c.id \(outOfOrderCandidates(selection)) AND s.created_ms >= \(inOrder[wanted - 1].createdMs)
                ORDER BY s.created_ms DESC, s.course_id DESC LIMIT \(wanted)
                """)
        } else {
            outOfOrder = try Self.newestFirst(
                db, "SELECT s.created_ms, c.id \(from) AND s.in_order = 0 ORDER BY s.created_ms DESC, s.course_id DESC")
        }
        page.ids += Self.merge(inOrder, outOfOrder).dropFirst(page.skip).prefix(page.need)
        page.skip = 0
    }

    /// Adds `selection`'s share of the page, sorted by `order`: for one with few candidates.
    func fillSorted(_ page: inout Page, _ db: Database, selection: Selection, by order: SQL, isLast: Bool) throws {
        let from = candidates(selection)
        guard try !skipsWhole(&page, db, from, isLast: isLast) else { return }
        page.ids += try Int64.fetchAll(
            db.cachedStatement(literal: "SELECT c.id \(from) ORDER BY \(order) LIMIT \(page.need) OFFSET \(page.skip)"))
        page.skip = 0
    }

    /// Whether the page has no room for the tier `from` selects: the page is full, or the tier
    /// comes whole before it (counted, and taken off the matches to skip; never for the last
    /// tier, whose place in the page its own query finds).
    private func skipsWhole(_ page: inout Page, _ db: Database, _ from: SQL, isLast: Bool) throws -> Bool {
        if page.isFull { return true }
        guard page.skip > 0, !isLast else { return false }
        let count = try Int.fetchOne(db.cachedStatement(literal: "SELECT count(*) \(from)")) ?? 0
        guard count <= page.skip else { return false }
        page.skip -= count
        return true
    }

    /// A course's place in date order.
    struct Dated {
        var createdMs: Int64
        var id: Int64
    }

    private static func newestFirst(_ db: Database, _ sql: SQL) throws -> [Dated] {
        try Row.fetchAll(db.cachedStatement(literal: sql)).map { Dated(createdMs: $0[0], id: $0[1]) }
    }

    /// Two lists, each newest first (ties: higher id first), merged newest first.
    static func merge(_ a: [Dated], _ b: [Dated]) -> [Int64] {
        var merged: [Int64] = []
        merged.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && (a[i].createdMs, a[i].id) > (b[j].createdMs, b[j].id)) {
                merged.append(a[i].id)
                i += 1
            } else {
                merged.append(b[j].id)
                j += 1
            }
        }
        return merged
    }
}
