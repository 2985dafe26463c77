import PostgresNIO
import RunnectStore

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

    /// A keyword's lookup grams (``KoreanText/lookupGrams(for:)``) as the index tokens of the
    /// field with letter `prefix` (`t`, `d`, `p`, as `SQLiteSearchIndex` writes them; `b`, both the
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
    func clauses(tier: SearchTier? = nil) -> [[[String]]] {
        var clauses: [[[String]]] = []
        var implied = Set<Int>()
        if let tier, tier.inTitle > 0 || tier.inDeparture > 0 {
            let pairs = KeywordSubsets.of(words.count, size: tier.inTitle).flatMap { inTitle in
                KeywordSubsets.of(words.count, size: tier.inDeparture).map { (inTitle, $0) }
            }
            clauses.append(
                pairs.map { inTitle, inDeparture in
                    inTitle.flatMap { word in
                        tokens(
                            words[word], field: inDeparture.contains(word) ? bothFields : SearchField.title.tokenPrefix)
                    }
                        + inDeparture.filter { !inTitle.contains($0) }.flatMap {
                            tokens(words[$0], field: SearchField.departure.tokenPrefix)
                        }
                })
            implied = Set(words.indices.filter { word in pairs.allSatisfy { $0.contains(word) || $1.contains(word) } })
        }
        clauses += words.indices.filter { !implied.contains($0) }.map { index in
            SearchField.allCases.map { tokens(words[index], field: $0.tokenPrefix) }
        }
        // A clause with an empty list holds for every entry: nothing to ask of the index.
        return clauses.filter { clause in !clause.contains(where: \.isEmpty) }
    }

    /// The letter of a gram's tokens in both the title and the departure.
    var bothFields: UInt8 { SearchField.bothFieldsPrefix }

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

extension SearchTier {
    /// Whether `match` is of this tier.
    func holds(_ match: PostgresSearch.Match) -> Bool {
        holds(inTitle: match.inTitle, inDeparture: match.inDeparture)
    }
}
