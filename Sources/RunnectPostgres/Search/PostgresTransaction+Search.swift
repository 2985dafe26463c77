import Foundation
import PostgresNIO
import RunnectStore

extension PostgresTransaction {
    // MARK: - Search

    /// The same answers as SQLite's search (`SearchIndex.search`), read in order from the server
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
    func searchIDs(keywords: String, scope: SearchScope, sort: CourseSort, limit: Int, offset: Int) async throws
        -> [Int64]
    {
        let search = PostgresSearch(words: KoreanText.words(in: keywords))
        guard !search.words.isEmpty, limit > 0 else { return [] }
        let offset = max(0, offset)
        let wanted = offset + limit
        let entries = try await searchEntries()
        let ids: [Int64]
        if sort != .relevance {
            ids = try await slice(
                search, scope: scope, sort: sort, wanted: wanted, tier: nil, entries: entries, walk: plans.walkRows)
        } else if search.words.count <= plans.maxTieredWords {
            ids = try await tiers(search, scope: scope, wanted: wanted, entries: entries)
        } else {
            ids = try await sortedByRelevance(search, scope: scope, wanted: wanted)
        }
        return Array(ids.dropFirst(offset).prefix(limit))
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
        let k = search.words.count
        let tiers = stride(from: k, through: 0, by: -1).flatMap { inTitle in
            stride(from: k, through: 0, by: -1).map { PostgresSearch.Tier(inTitle: inTitle, inDeparture: $0) }
        }
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
        _ search: PostgresSearch, tier: PostgresSearch.Tier, wanted: Int, entries: PendingEntries
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
        _ search: PostgresSearch, scope: SearchScope, sort: CourseSort, wanted: Int, tier: PostgresSearch.Tier?,
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
        tier: PostgresSearch.Tier?, after: PostgresSearch.Match? = nil
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
        tier: PostgresSearch.Tier?, titleGroup: Int? = nil, after: PostgresSearch.Match? = nil,
        onRow: () -> Void = {}
    ) async throws -> [PostgresSearch.Match] {
        var bindings = PostgresBindings()
        // Every keyword's needles (its literal run in the text, its initials projection in the
        // projection's), which `strpos` tests: all a walk needs; the GIN index needs the grams.
        // A title group asks the index what its count's tier with nothing in the departure
        // asks: a superset of each of its tiers.
        let asked = titleGroup.map { PostgresSearch.Tier(inTitle: $0, inDeparture: 0) } ?? tier
        bindings.append(PostgresSearch.encoded(walk == nil ? search.clauses(tier: asked) : []))
        try bindings.append(PostgresArrayParameter(search.words.map(KoreanText.literalRun(of:))))
        try bindings.append(PostgresArrayParameter(search.words.map { $0.kind == .plain ? nil : $0.indexText }))
        bindings.append(Int32(asked?.inTitle ?? 0))
        bindings.append(Int32(asked?.inDeparture ?? 0))
        bindings.append(scope == .shared)
        bindings.append(PostgresSearch.order(sort))
        bindings.append(walk.map { Int32(clamping: $0) })
        bindings.append(Int32(clamping: skip))
        bindings.append(upTo.map { Int32(clamping: $0) })
        bindings.append(after?.id)
        bindings.append(after?.createdMs)
        bindings.append(after.map { Int32(clamping: $0.scrapCount) })
        bindings.append(after?.distanceMeters)
        // The rows as one row of arrays (``PostgresArrayColumn``), in the function's order: one
        // aggregate over its scan, whose arrays all see its rows in that order.
        let rows = try await query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT array_agg(id), array_agg(created_ms), array_agg(title), array_agg(description),
                           array_agg(departure), array_agg(scrap_count), array_agg(distance_m), array_agg(in_title),
                           array_agg(in_departure)
                    FROM runnect_search_page($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
                    """,
                binds: bindings)
        ).rows
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

/// One search's keywords, as the postings and the exact check see them.
struct PostgresSearch {
    let words: [KoreanText.Word]

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
    /// field with letter `prefix` (`t`, `d`, `p`, as `SearchIndex` writes them; `b`, both the
    /// title and the departure, since schema version 12).
    func tokens(_ word: KoreanText.Word, field prefix: UInt8) -> [String] {
        KoreanText.lookupGrams(for: word).map { KoreanText.token(prefix: prefix, gram: $0) }
    }

    /// What the index can tell of the matches (of `tier`, when given), as clauses all of
    /// which hold, each met by any of its token lists, each list wholly in `tokens`: every
    /// keyword's grams in some field; for a tier, the grams of `inTitle` keywords in the title
    /// together with those of `inDeparture` keywords in the departure (a list for each pair of
    /// such sets of keywords; a keyword in both sets by its grams in both fields, one posting
    /// list where the two fields' were intersected), and then a keyword's own clause only where
    /// that one does not imply it (the keyword is not in every pair). Supersets: the exact check
    /// decides.
    ///
    /// Why one clause for the tier, and no more than it needs: the planner indexes the clauses
    /// it expects fewest rows of and checks the rest on every row it fetches, and it prices
    /// grams as independent. Given `hangang night run`'s top tier (all three words in the
    /// title, two in the departure) as a clause per field beside each word's, it indexed two and
    /// fetched 2,168 rows at 100,000 courses (21,609 at a million) to find none: 24 ms. The
    /// tier's one clause alone: 1.7 ms.
    ///
    /// Why a keyword's grams in both fields (schema version 12): at a million courses `ㅇㄹㅍ`'s
    /// top tier (in the title and in the departure) intersected its gram's title list (26,344
    /// entries) with its departure list (58,000) in the GIN index, 3.1 ms for 1,549 entries;
    /// the `b` token's list holds just those.
    func clauses(tier: Tier? = nil) -> [[[String]]] {
        var clauses: [[[String]]] = []
        var implied = Set<Int>()
        if let tier, tier.inTitle > 0 || tier.inDeparture > 0 {
            let pairs = KeywordSubsets.of(words.count, size: tier.inTitle).flatMap { inTitle in
                KeywordSubsets.of(words.count, size: tier.inDeparture).map { (inTitle, $0) }
            }
            clauses.append(
                pairs.map { inTitle, inDeparture in
                    inTitle.flatMap { word in
                        tokens(words[word], field: inDeparture.contains(word) ? bothFields : 0x74)
                    } + inDeparture.filter { !inTitle.contains($0) }.flatMap { tokens(words[$0], field: 0x70) }
                })
            implied = Set(words.indices.filter { word in pairs.allSatisfy { $0.contains(word) || $1.contains(word) } })
        }
        clauses += words.indices.filter { !implied.contains($0) }.map { index in
            [0x74, 0x64, 0x70].map { tokens(words[index], field: $0) }
        }
        // A clause with an empty list holds for every entry: nothing to ask of the index.
        return clauses.filter { clause in !clause.contains(where: \.isEmpty) }
    }

    /// The letter of a gram's tokens in both the title and the departure.
    var bothFields: UInt8 { SearchIndex.NormalizedRow.bothFieldsPrefix }

    /// Clauses as `runnect_search_page` takes them: one string a clause, its token lists
    /// separated by `|`, tokens by a space (tokens are `[0-9a-z]`).
    static func encoded(_ clauses: [[[String]]]) -> [String] {
        clauses.map { clause in clause.map { $0.joined(separator: " ") }.joined(separator: "|") }
    }

    /// The `sort` argument of `runnect_search_page` for an order (relevance tiers read by date).
    static func order(_ sort: CourseSort) -> String {
        switch sort {
        case .date, .relevance: "date"
        case .scrap: "scrap"
        case .distance: "distance"
        }
    }

    /// The rows of one `runnect_search_page` read, a column each (``PostgresArrayColumn``).
    struct Rows {
        var ids: [Int64?]
        var createdMs: [Int64?]
        var titles: [String?]
        var descriptions: [String?]
        var departures: [String?]
        var scrapCounts: [Int32?]
        var distances: [Double?]
        var titleCounts: [Int32?]
        var departureCounts: [Int32?]

        /// How many rows: every column holds as many (else the read fails).
        let count: Int

        /// Reads the one row of `array_agg`s (each `NULL` when the function sent no row).
        init(_ row: PostgresRow) throws {
            let columns = try row.decode(
                (
                    PostgresArrayColumn<Int64>?, PostgresArrayColumn<Int64>?, PostgresArrayColumn<String>?,
                    PostgresArrayColumn<String>?, PostgresArrayColumn<String>?, PostgresArrayColumn<Int32>?,
                    PostgresArrayColumn<Double>?, PostgresArrayColumn<Int32>?, PostgresArrayColumn<Int32>?
                ).self)
            ids = columns.0?.elements ?? []
            createdMs = columns.1?.elements ?? []
            titles = columns.2?.elements ?? []
            descriptions = columns.3?.elements ?? []
            departures = columns.4?.elements ?? []
            scrapCounts = columns.5?.elements ?? []
            distances = columns.6?.elements ?? []
            titleCounts = columns.7?.elements ?? []
            departureCounts = columns.8?.elements ?? []
            count = ids.count
            guard
                [
                    createdMs.count, titles.count, descriptions.count, departures.count, scrapCounts.count,
                    distances.count, titleCounts.count, departureCounts.count,
                ].allSatisfy({ $0 == count })
            else { throw PostgresDecodingError.Code.failure }
        }
    }

    /// Row `index` of a read (``Rows``) when it matches every keyword exactly: as the server
    /// tells when it sends no texts (no keyword is mixed: its `strpos` tests were exact), else as
    /// ``KoreanText/contains(_:word:)`` finds in them.
    func match(_ rows: Rows, at index: Int) throws -> Match? {
        guard let id = rows.ids[index], let createdMs = rows.createdMs[index],
            let scrapCount = rows.scrapCounts[index], let distance = rows.distances[index],
            let titleCount = rows.titleCounts[index], let departureCount = rows.departureCounts[index]
        else { throw PostgresDecodingError.Code.missingData }
        guard let title = rows.titles[index], let description = rows.descriptions[index],
            let departure = rows.departures[index]
        else {
            return Match(
                id: id, createdMs: createdMs, scrapCount: Int(scrapCount), distanceMeters: distance,
                inTitle: Int(titleCount), inDeparture: Int(departureCount))
        }
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
            id: id, createdMs: createdMs, scrapCount: Int(scrapCount), distanceMeters: distance, inTitle: inTitle,
            inDeparture: inDeparture)
    }
}
