/// One relevance tier of a keyword search: the matches with exactly ``inTitle`` of the keywords
/// in the title and ``inDeparture`` in the departure.
///
/// Relevance order reads the tiers in ``relevanceOrder(keywords:)``, each newest first: both
/// backends page by it, SQLite with FTS5 expressions per tier, PostgreSQL with index clauses.
package struct SearchTier: Hashable, Sendable {
    package var inTitle: Int
    package var inDeparture: Int

    package init(inTitle: Int, inDeparture: Int) {
        self.inTitle = inTitle
        self.inDeparture = inDeparture
    }

    /// Every tier of a search of `keywords` keywords, best first: all of them in the title
    /// before fewer, and within a title count, more in the departure first (`(k + 1)²` tiers).
    package static func relevanceOrder(keywords: Int) -> [SearchTier] {
        stride(from: keywords, through: 0, by: -1).flatMap { inTitle in
            stride(from: keywords, through: 0, by: -1).map { SearchTier(inTitle: inTitle, inDeparture: $0) }
        }
    }

    /// Whether a course with `inTitle` keywords in its title and `inDeparture` in its departure
    /// is of this tier.
    package func holds(inTitle: Int, inDeparture: Int) -> Bool {
        self.inTitle == inTitle && self.inDeparture == inDeparture
    }
}
