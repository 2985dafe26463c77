import Foundation
import PostgresNIO
import RunnectStore

extension PostgresTransaction {
    // MARK: - Search

    /// The same answers as SQLite's search (`SQLiteSearchIndex.search`), read in order from the server
    /// by `runnect_search_page`, a function of the tables' owner (under row-level security the
    /// planner may not use `@>`, not leakproof, in an index scan of a runner's query): the
    /// entries holding all of each keyword's lookup grams in one field (a superset of its
    /// matches), in the order asked, among the courses the user may read. Each row is checked
    /// exactly here (``KoreanText/contains(_:word:)``, the reference definition of a match)
    /// until the page is full.
    ///
    /// Relevance (up to ``PostgresSearchPlans/maxTieredWords`` keywords) goes tier by tier, as
    /// on SQLite: all keywords in the title first, then fewer; within a title count, more in the
    /// departure first; each tier newest first. Longer queries, whose matches the AND makes few,
    /// read them all and sort them here.
    func searchIDs(_ request: SearchRequest) async throws -> [Int64] {
        guard !request.asksNothing else { return [] }
        let search = PostgresSearch(words: request.words)
        let (scope, wanted) = (request.scope, request.wanted)
        let entries = try await searchEntries()
        let ids: [Int64]
        if request.sort != .relevance {
            ids = try await slice(
                search, scope: scope, sort: request.sort, wanted: wanted, tier: nil, entries: entries,
                walk: plans.walkRows)
        } else if search.words.count <= plans.maxTieredWords {
            ids = try await tiers(search, scope: scope, wanted: wanted, entries: entries)
        } else {
            ids = try await sortedByRelevance(search, scope: scope, wanted: wanted)
        }
        return Array(ids.dropFirst(request.offset).prefix(request.limit))
    }

    /// The first `wanted` matches in relevance order, tier by tier. One walk of the newest
    /// ``PostgresSearchPlans/walkRows`` readable courses first: when it shows the keywords rare,
    /// every match is read and sorted here at once; else each tier takes its page from that walk
    /// when the walk holds enough of it, and is read otherwise: walking on when the tier is
    /// common; when it is rare, every match with as many keywords in the title read at once if
    /// the walk shows those few (one read for the tiers of that title count), else the tier's
    /// own matches sorted.
    ///
    /// Why the title count's read: at a million courses, `서울 강`'s top tiers (both words in the
    /// title, and both, one or none in the departure) asked the GIN index each for grams of
    /// `서울` in the departure, found in every course there: 12–13 ms a tier to find none, where
    /// both words' title grams alone (2.8 ms) tell all three tiers.
    func tiers(_ search: PostgresSearch, scope: SearchScope, wanted: Int, entries: PendingEntries) async throws
        -> [Int64]
    {
        let tiers = SearchTier.relevanceOrder(keywords: search.words.count)
        var ids: [Int64] = []
        guard let window = plans.walkRows else {
            for tier in tiers where ids.count < wanted {
                await ids += try slice(
                    search, scope: scope, sort: .date, wanted: wanted - ids.count, tier: tier, entries: entries,
                    walk: nil)
            }
            return ids
        }
        // A rare top tier, read before the walk: the page when it fills it.
        var read = 0
        if try await readsFirst(search, tier: tiers[0], wanted: wanted, entries: entries) {
            ids = try await slice(
                search, scope: scope, sort: .date, wanted: wanted, tier: tiers[0], entries: entries, walk: nil)
            if ids.count >= wanted { return ids }
            read = 1
        }
        let walked = try await matches(search, scope: scope, sort: .date, walk: window, skip: 0, upTo: nil, tier: nil)
        if try await Double(walked.count) / Double(window) * Double(entries.count()) <= Double(plans.sortedMatches) {
            return try await sortedByRelevance(search, scope: scope, wanted: wanted)
        }
        // Every match of one title count, read once when the walk shows that count rare: it
        // serves each tier of the count, the first tier that needs it and those after.
        var titleGroups: [Int: [PostgresSearch.Match]] = [:]
        for tier in tiers.dropFirst(read) where ids.count < wanted {
            let needed = wanted - ids.count
            if let group = titleGroups[tier.inTitle] {
                ids += group.lazy.filter(tier.holds).prefix(needed).map(\.id)
                continue
            }
            let inWalk = walked.filter(tier.holds)
            if inWalk.count >= needed {
                ids += inWalk.prefix(needed).map(\.id)
            } else if try await walksOn(found: inWalk.count, in: window, wanted: needed, entries: entries.count()) {
                // On from the walk's last match (of any tier): none of this tier lies between it
                // and the walk's end.
                let more = needed - inWalk.count
                ids += inWalk.map(\.id)
                await ids += try slice(
                    search, scope: scope, sort: .date, wanted: more, tier: tier, entries: entries,
                    walk: walkOn(needing: more, found: inWalk.count, in: window, window: window), after: walked.last)
            } else if try await Double(walked.count { $0.inTitle == tier.inTitle }) / Double(window)
                * Double(entries.count())
                <= Double(plans.sortedMatches)
            {
                let group = try await matches(
                    search, scope: scope, sort: .date, skip: 0, upTo: nil, tier: nil, titleGroup: tier.inTitle)
                titleGroups[tier.inTitle] = group
                ids += group.lazy.filter(tier.holds).prefix(needed).map(\.id)
            } else {
                await ids += try slice(
                    search, scope: scope, sort: .date, wanted: needed, tier: tier, entries: entries, walk: nil)
            }
        }
        return ids
    }

    /// Whether a one-keyword search reads its top tier (`tier`) first, before any walk: when the
    /// tier's index clause is one token, and from `wanted` to ``PostgresSearchPlans/topTierRows``
    /// of the entries the caller may read hold it (`runnect_search_estimate`, schema version 16,
    /// which counts them up to one past that): enough to fill the page, too few for a walk to find
    /// a page of them, which the tier's own read then does. The walk is left out when that read
    /// fills the page.
    ///
    /// The count is asked once for a token while the planner's count of the entries
    /// (``PendingEntries/planned()``, which `ANALYZE` changes) stays the same
    /// (``PostgresSearchEstimates``).
    func readsFirst(
        _ search: PostgresSearch, tier: SearchTier, wanted: Int, entries: PendingEntries
    ) async throws -> Bool {
        guard let limit = plans.topTierRows, search.words.count == 1,
            case let clauses = search.clauses(tier: tier), clauses.count == 1, clauses[0].count == 1,
            clauses[0][0].count == 1
        else { return false }
        let token = clauses[0][0][0]
        let tuples = try entries.planned()
        let estimate: Double?
        if let kept = estimates.estimate(of: token, tuples: tuples) {
            estimate = kept
        } else {
            estimate =
                try await value(
                    Double?.self, "SELECT runnect_search_estimate(\(clauses[0][0]), \(Int64(limit)))") ?? nil
            estimates.keep(estimate, of: token, tuples: tuples)
        }
        // Null: a token the statistics know no frequency of.
        guard let estimate else { return false }
        return Double(wanted) <= estimate && estimate <= Double(limit)
    }

    /// The first `wanted` matches in relevance order, from every match sorted here.
    func sortedByRelevance(_ search: PostgresSearch, scope: SearchScope, wanted: Int) async throws -> [Int64] {
        let matches = try await matches(search, scope: scope, sort: .date, walk: nil, skip: 0, upTo: nil, tier: nil)
        return page(matches, sort: .relevance, limit: wanted, offset: 0)
    }

    /// The first `wanted` matches (of `tier`, when given) in `sort` order (not relevance), after
    /// `start` when given (a match of the same order already read), by the cheaper of two reads,
    /// chosen on what the first one sees:
    /// - **Walk** the order's index, looking at the first `walk` readable courses, then on from
    ///   the last match found (``walkOn(needing:found:in:window:)``), while walking on stays
    ///   cheaper: a common keyword fills its page there.
    /// - **Sort** every match the GIN index finds (after the last one found): the few of a rare
    ///   keyword, once the walk has seen how rare.
    func slice(
        _ search: PostgresSearch, scope: SearchScope, sort: CourseSort, wanted: Int, tier: SearchTier?,
        entries: PendingEntries, walk first: Int?, after start: PostgresSearch.Match? = nil
    ) async throws -> [Int64] {
        var found: [PostgresSearch.Match] = []
        var walked = 0
        var walk = first
        while let window = walk {
            await found += try read(
                search, scope: scope, sort: sort, walk: window, wanted: wanted - found.count, tier: tier,
                after: found.last ?? start)
            walked += window
            if found.count >= wanted { return found.map(\.id) }  // else: never trust `entries` to end a walk
            walk =
                try await walksOn(found: found.count, in: walked, wanted: wanted, entries: entries.count())
                ? walkOn(needing: wanted - found.count, found: found.count, in: walked, window: window) : nil
        }
        await found += try read(
            search, scope: scope, sort: sort, walk: nil, wanted: wanted - found.count, tier: tier,
            after: found.last ?? start)
        return found.map(\.id)
    }

    /// How far to walk on for `need` more matches, `found` having been found in `walked` rows
    /// by walks of up to `window`: twice the rows the density found says they take, at least
    /// `window` and at most three times it (the growth of a walk from the start four times as
    /// far, which walked again what the last one had).
    func walkOn(needing need: Int, found: Int, in walked: Int, window: Int) -> Int {
        let expected = 2 * Double(need) * Double(walked) / Double(max(1, found))
        return max(window, min(3 * window, Int(expected.rounded(.up))))
    }

    /// Whether walking on is cheaper than sorting every match, once a walk of `window` courses
    /// found `found` matches: a density `d` takes `wanted / d` rows walked to fill the page,
    /// against the `d · entries` matches the GIN index would give, each fetched apart and sent
    /// here (counted eight times a walked row).
    func walksOn(found: Int, in window: Int, wanted: Int, entries: Int) -> Bool {
        let density = Double(found) / Double(window)
        return density > 0 && Double(wanted) / density < 8 * density * Double(entries)
    }

    /// The store's search entries, for the choice of reads:
    /// the planner's count (`reltuples`), or the rows counted when it has none yet.
    ///
    /// Two statements, not one with the count as a subquery: at a million courses the
    /// subquery's plan (never run) cost enough to be JIT-compiled, 4–6 ms every search.
    ///
    /// Asked for without waiting (``PostgresTransaction/send(_:)``): the search's first read
    /// follows it on the connection, and the count is read once the first read has shown what
    /// it needs to weigh; a round trip fewer.
    func searchEntries() async throws -> PendingEntries {
        try await PendingEntries(
            transaction: self,
            estimate: send("SELECT reltuples::bigint FROM pg_class WHERE oid = 'course_search'::regclass"))
    }

    /// ``searchEntries()``'s count, waited for when first needed.
    final class PendingEntries {
        private let transaction: PostgresTransaction
        private let estimate: EventLoopFuture<PostgresQueryResult>
        private var counted: Int?

        init(transaction: PostgresTransaction, estimate: EventLoopFuture<PostgresQueryResult>) {
            self.transaction = transaction
            self.estimate = estimate
        }

        func count() async throws -> Int {
            if let counted { return counted }
            let estimate = try planned()
            let count =
                try await estimate >= 0
                ? estimate : transaction.value(Int.self, "SELECT count(*) FROM course_search") ?? 0
            counted = count
            return count
        }

        /// The planner's count as it is (`reltuples`; -1 for a table never vacuumed or analysed),
        /// without counting the rows.
        func planned() throws -> Int {
            try estimate.wait().rows.first.map { try $0.decode(Int.self) } ?? -1
        }
    }

    /// The first `wanted` exact matches of one read (`walk` and `after` as in
    /// `runnect_search_page`), in pages of the server's ordered superset growing
    /// ``PostgresSearchPlans/growth`` times.
    func read(
        _ search: PostgresSearch, scope: SearchScope, sort: CourseSort, walk: Int?, wanted: Int,
        tier: SearchTier?, after: PostgresSearch.Match? = nil
    ) async throws -> [PostgresSearch.Match] {
        var found: [PostgresSearch.Match] = []
        var skip = 0
        // A walk costs its window, not the rows it returns, and a re-read walks it again: its
        // first read asks for `growth` times as many (one read where a scrap-order walk for a
        // keyword of initials took two, 6 + 7 ms on 100,000 courses).
        var batch = plans.firstBatch ?? (walk == nil ? wanted + 8 : (wanted + 8) * plans.growth)
        while found.count < wanted {
            var read = 0
            let matches = try await matches(
                search, scope: scope, sort: sort, walk: walk, skip: skip, upTo: batch, tier: tier, after: after
            ) { read += 1 }
            found += matches.prefix(wanted - found.count)
            if read < batch { break }
            skip += read
            batch *= plans.growth
        }
        return found
    }

    /// The exact matches (of `tier`, when given; with `titleGroup` keywords in the title, when
    /// that is given) among rows `skip + 1` to `skip + upTo` (all from `skip` when `upTo` is
    /// nil) of the server's ordered superset (`walk` as in `runnect_search_page`; after the
    /// match `after` in that order, when given), in its order; `onRow` is called for every row
    /// read.
    func matches(
        _ search: PostgresSearch, scope: SearchScope, sort: CourseSort, walk: Int? = nil, skip: Int, upTo: Int?,
        tier: SearchTier?, titleGroup: Int? = nil, after: PostgresSearch.Match? = nil,
        onRow: () -> Void = {}
    ) async throws -> [PostgresSearch.Match] {
        // A title group asks the index what its count's tier with nothing in the departure
        // asks: a superset of each of its tiers.
        let asked = titleGroup.map { SearchTier(inTitle: $0, inDeparture: 0) } ?? tier
        let call = PostgresSearchPage(
            search, tier: asked, sharedOnly: scope == .shared, sort: sort, walk: walk, skip: skip, upTo: upTo,
            after: after)
        let rows = try await query(call.query()).rows
        guard let row = rows.first else { return [] }
        let read = try PostgresSearch.Rows(row)
        var found: [PostgresSearch.Match] = []
        for index in 0..<read.count {
            onRow()
            guard let match = try search.match(read, at: index), tier.map({ $0.holds(match) }) ?? true,
                titleGroup.map({ $0 == match.inTitle }) ?? true
            else { continue }
            found.append(match)
        }
        return found
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
}
