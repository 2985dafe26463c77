import GRDB

extension SQLiteSearchIndex {
    // MARK: - Searching

    /// When a search sorts its candidates and when it walks an index already in the order asked
    /// (see ``SQLiteSearchQuery``). Both plans return the same ids; tests move the thresholds to run
    /// each plan on small stores.
    ///
    /// Why two plans: sorting alone, on the 100,000-course benchmark store
    /// (`runnect-bench search`, 2026-11-24, machine shared with builds), took p95 107 ms for
    /// 1-syllable keywords, 118 ms for initials and 128 ms for multi-word queries (each common
    /// keyword has tens of thousands of candidates to check), against a 10 ms target; walking
    /// alone would read the whole index for a rare keyword in scrap or distance order.
    struct Plans: Sendable {
        /// Candidate count from which scrap and distance orders walk `course` along its list
        /// index, and relevance walks its score tiers, instead of sorting the candidates: dense
        /// matches fill a page after a few hundred rows.
        var denseCandidateCount = 2_000
        /// Relevance is walked tier by tier for up to this many keywords (`(k + 1)²` tiers);
        /// longer queries, whose matches the AND makes few, sort their candidates.
        var maxTieredWords = 3

        static let standard = Plans()
    }

    /// The ids of the courses matching every keyword of `request`, one page of them in its order.
    ///
    /// - Parameters:
    ///   - request: The keywords, scope, order and page (``SearchRequest``).
    ///   - reader: Who searches: their own private courses and the shared ones; `nil`: every course.
    ///   - plans: The thresholds between the plans; tests change them.
    /// - Returns: Course ids, best first.
    /// - Complexity: Date pages cost about `offset + limit` candidates, however many courses
    ///   match; relevance pages as much per score tier visited. Scrap and distance pages cost
    ///   the same for common keywords and a sort of the matches for rare ones.
    static func search(
        _ db: Database, _ request: SearchRequest, reader: String? = nil, plans: Plans = .standard
    ) throws -> [Int64] {
        guard !request.asksNothing else { return [] }
        let query = SQLiteSearchQuery(words: request.words, scope: request.scope, reader: reader)
        let (limit, offset) = (request.limit, request.offset)
        func isDense() throws -> Bool {
            try query.candidateCount(db, query.anyExpression, upTo: plans.denseCandidateCount)
                >= plans.denseCandidateCount
        }
        switch request.sort {
        case .date:
            // Walking the FTS5 rowids costs the candidates before the page, never more than a sort.
            var page = SQLiteSearchQuery.Page(limit: limit, skip: offset)
            try query.fillNewestFirst(&page, db, selection: query.allMatches, isLast: true)
            return page.ids
        case .relevance:
            guard request.words.count <= plans.maxTieredWords, try isDense() else {
                return try query.sorted(db, by: query.relevanceOrder, limit: limit, offset: offset)
            }
            var page = SQLiteSearchQuery.Page(limit: limit, skip: offset)
            try query.fillByRelevance(&page, db, denseCandidateCount: plans.denseCandidateCount)
            return page.ids
        case .scrap, .distance:
            let order: SQLiteSearchQuery.ListOrder = request.sort == .scrap ? .scrap : .distance
            if try isDense() {
                return try query.walkCourse(db, order: order, limit: limit, offset: offset)
            }
            return try query.sorted(db, by: order.terms, limit: limit, offset: offset)
        }
    }
}
