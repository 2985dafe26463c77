/// How a search reads the server's ordered superset: how far it walks the order's index first,
/// how many rows at a time, and when relevance goes tier by tier.
package struct PostgresSearchPlans: Sendable {
    /// Readable courses a slice of the answer first walks in the order asked before it weighs
    /// sorting the GIN index's matches instead; `nil`: always sort them.
    package var walkRows: Int?
    /// Relevance reads every match and sorts them when the first walk shows at most this many in
    /// the store.
    package var sortedMatches: Int
    /// Rows of the server's ordered superset read first for a slice of the answer; `nil`: the
    /// rows wanted and 8 more (the superset is rarely wider than the matches), `growth` times as
    /// many for a walk (each read of a walk walks its whole window).
    package var firstBatch: Int?
    /// Each further read is this many times the last (rows read again on a re-read stay under
    /// a third of the whole).
    package var growth: Int
    /// Relevance is read tier by tier for up to this many keywords (`(k + 1)²` tiers); longer
    /// queries, whose matches the AND makes few, sort their candidates.
    package var maxTieredWords: Int
    /// A one-keyword search in relevance order whose top tier is one token of the index reads
    /// that tier first, before any walk, when the planner expects from a page's worth to this
    /// many entries (readable or not: the read fetches them all) to hold the token; `nil`: never.
    package var topTierRows: Int?
    /// How a page's courses are read, once its ids are known.
    package var coursesRead: CoursesRead

    /// How a page's courses are read: what `runnect-bench pg search --courses-read` compares.
    package enum CoursesRead: String, Sendable, CaseIterable {
        /// `runnect_courses(viewer, ids)`, a PL/pgSQL function whose plan the session keeps.
        case function
        /// postgres-nio's prepared statement, parsed and planned once per connection.
        case preparedStatement = "prepared"
        /// The statement sent as it is, parsed and planned each time.
        case statement
    }

    package init(
        walkRows: Int? = 1_024, sortedMatches: Int = 500, firstBatch: Int? = nil, growth: Int = 4,
        maxTieredWords: Int = 3, topTierRows: Int? = 2_000, coursesRead: CoursesRead = .function
    ) {
        self.walkRows = walkRows
        self.sortedMatches = sortedMatches
        self.firstBatch = firstBatch
        self.growth = max(2, growth)
        self.maxTieredWords = maxTieredWords
        self.topTierRows = topTierRows
        self.coursesRead = coursesRead
    }

    /// The settings of the shipped store.
    package static let standard = PostgresSearchPlans()
}
