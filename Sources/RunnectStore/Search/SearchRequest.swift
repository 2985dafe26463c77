/// One keyword search, as a backend answers it: the keywords, which courses, in which order,
/// and which page.
package struct SearchRequest: Sendable {
    /// What the user typed, split into words (``KoreanText/words(in:)``).
    package var words: [KoreanText.Word]
    /// `.shared` for uploaded courses only, `.all` for every course the reader may read.
    package var scope: SearchScope
    /// `relevance` ranks by the number of keywords found in the title, then the number found in
    /// the departure, then newest first (``SearchTier``); `date` is newest first; `scrap` most
    /// scrapped first, then newest; `distance` shortest first. Ties end with the id, so pages
    /// are stable.
    package var sort: CourseSort
    /// Page size; nothing is read when it is not positive.
    package var limit: Int
    /// Matches skipped before the page; never negative.
    package var offset: Int

    /// A request for `keywords` as typed. A negative `offset` counts as 0.
    package init(keywords: String, scope: SearchScope, sort: CourseSort, limit: Int, offset: Int) {
        words = KoreanText.words(in: keywords)
        self.scope = scope
        self.sort = sort
        self.limit = limit
        self.offset = max(0, offset)
    }

    /// Whether the answer is empty whatever the store holds: no keyword (blank input; listing
    /// without keywords is ``CourseStore/list(_:sort:page:)``'s job), or no room on the page.
    package var asksNothing: Bool { words.isEmpty || limit <= 0 }

    /// The matches up to the page's end, in order: `offset + limit`.
    package var wanted: Int { offset + limit }
}
