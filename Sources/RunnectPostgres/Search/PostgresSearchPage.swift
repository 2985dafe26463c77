import PostgresNIO
import RunnectStore

/// One call of `runnect_search_page`, the server's ordered superset of a search's matches: its
/// fourteen arguments as one value, each named, and sent by name (`clauses => $1`, …), so that
/// no argument can take another's place.
struct PostgresSearchPage {
    /// What the GIN index is asked (``PostgresSearch/encoded(_:)``); empty for a walk, which
    /// tests the needles on the courses of the order's index instead.
    var clauses: [String]
    /// Every keyword's literal run (``KoreanText/literalRun(of:)``), which `strpos` tests.
    var needles: [String?]
    /// Every keyword's initials projection, `nil` for a plain keyword.
    var initials: [String?]
    /// The tier's keywords in the title and in the departure (0 and 0: no tier).
    var titleWords: Int32
    var departureWords: Int32
    var sharedOnly: Bool
    /// `date`, `scrap` or `distance` (``PostgresSearch/order(_:)``).
    var sort: String
    /// How many readable courses a walk looks at; `nil`: no walk, the index's matches sorted.
    var walk: Int32?
    /// Rows of the superset skipped, and at most how many are sent (`nil`: all).
    var skip: Int32
    var upTo: Int32?
    /// The match the rows come after in the order (a walk going on), when given.
    var after: PostgresSearch.Match?

    /// The call for `search`'s matches of `tier` (when given) in `sort` order (relevance tiers
    /// are read by date).
    init(
        _ search: PostgresSearch, tier: SearchTier?, sharedOnly: Bool, sort: CourseSort, walk: Int?, skip: Int,
        upTo: Int?, after: PostgresSearch.Match?
    ) {
        clauses = walk == nil ? PostgresSearch.encoded(search.clauses(tier: tier)) : []
        needles = search.words.map(KoreanText.literalRun(of:))
        initials = search.words.map { $0.kind == .plain ? nil : $0.indexText }
        titleWords = Int32(tier?.inTitle ?? 0)
        departureWords = Int32(tier?.inDeparture ?? 0)
        self.sharedOnly = sharedOnly
        self.sort = PostgresSearch.order(sort)
        self.walk = walk.map { Int32(clamping: $0) }
        self.skip = Int32(clamping: skip)
        self.upTo = upTo.map { Int32(clamping: $0) }
        self.after = after
    }

    /// The rows as one row of arrays (``PostgresArrayColumn``), in the function's order: one
    /// aggregate over its scan, whose arrays all see its rows in that order.
    func query() throws -> PostgresQuery {
        var bindings = PostgresBindings()
        bindings.append(clauses)
        try bindings.append(PostgresArrayParameter(needles))
        try bindings.append(PostgresArrayParameter(initials))
        bindings.append(titleWords)
        bindings.append(departureWords)
        bindings.append(sharedOnly)
        bindings.append(sort)
        bindings.append(walk)
        bindings.append(skip)
        bindings.append(upTo)
        bindings.append(after?.id)
        bindings.append(after?.createdMs)
        bindings.append(after.map { Int32(clamping: $0.scrapCount) })
        bindings.append(after?.distanceMeters)
        return PostgresQuery(unsafeSQL: Self.sql, binds: bindings)
    }

    /// The call, its arguments by name in ``query()``'s order.
    static let sql = """
        SELECT array_agg(id), array_agg(created_ms), array_agg(title), array_agg(description),
               array_agg(departure), array_agg(scrap_count), array_agg(distance_m), array_agg(in_title),
               array_agg(in_departure)
        FROM runnect_search_page(
            clauses => $1, needles => $2, initials => $3, title_words => $4, departure_words => $5,
            shared_only => $6, sort => $7, walk => $8, skip => $9, up_to => $10, after_id => $11,
            after_created_ms => $12, after_scrap_count => $13, after_distance_m => $14)
        """
}
