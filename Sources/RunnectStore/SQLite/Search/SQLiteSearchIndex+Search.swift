import GRDB

extension SearchIndex {
    // MARK: - Searching

    /// When a search sorts its candidates and when it walks an index already in the order asked
    /// (see ``SearchQuery``). Both plans return the same ids; tests move the thresholds to run
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

    /// The ids of the courses matching every keyword, in `sort` order, one page of them.
    ///
    /// - Parameters:
    ///   - keywords: What the user typed, split on whitespace. Blank input matches nothing
    ///     (listing without keywords is ``CourseStore/list(_:sort:page:)``'s job): `[]`.
    ///   - scope: `.shared` for uploaded courses only, `.all` for every course `reader` may read.
    ///   - reader: Who searches: their own private courses and the shared ones; `nil`: every course.
    ///   - sort: `relevance` ranks by the number of keywords found in the title, then the number
    ///     found in the departure, then newest first; `date` is newest first; `scrap` most
    ///     scrapped first, then newest; `distance` shortest first. Ties end with the id, so
    ///     pages are stable.
    ///   - limit: Page size; `[]` when not positive.
    ///   - offset: Matches skipped before the page; negative counts as 0.
    ///   - plans: The thresholds between the plans; tests change them.
    /// - Returns: Course ids, best first.
    /// - Complexity: Date pages cost about `offset + limit` candidates, however many courses
    ///   match; relevance pages as much per score tier visited. Scrap and distance pages cost
    ///   the same for common keywords and a sort of the matches for rare ones.
    static func search(
        _ db: Database, keywords: String, scope: SearchScope, reader: String? = nil, sort: CourseSort, limit: Int,
        offset: Int, plans: Plans = .standard
    ) throws -> [Int64] {
        let words = KoreanText.words(in: keywords)
        guard !words.isEmpty, limit > 0 else { return [] }
        let query = SearchQuery(words: words, scope: scope, reader: reader)
        let offset = max(0, offset)
        func isDense() throws -> Bool {
            try query.candidateCount(db, query.anyExpression, upTo: plans.denseCandidateCount)
                >= plans.denseCandidateCount
        }
        switch sort {
        case .date:
            // Walking the FTS5 rowids costs the candidates before the page, never more than a sort.
            var page = SearchQuery.Page(limit: limit, skip: offset)
            try query.fillNewestFirst(&page, db, tier: query.allMatches, isLast: true)
            return page.ids
        case .relevance:
            guard words.count <= plans.maxTieredWords, try isDense() else {
                return try query.sorted(db, by: query.relevanceOrder, limit: limit, offset: offset)
            }
            var page = SearchQuery.Page(limit: limit, skip: offset)
            try query.fillByRelevance(&page, db, denseCandidateCount: plans.denseCandidateCount)
            return page.ids
        case .scrap, .distance:
            let order: SearchQuery.ListOrder = sort == .scrap ? .scrap : .distance
            if try isDense() {
                return try query.walkCourse(db, order: order, limit: limit, offset: offset)
            }
            return try query.sorted(db, by: order.terms, limit: limit, offset: offset)
        }
    }
}
