extension CourseStore {
    // MARK: - Search

    /// Courses whose title, description or departure match every keyword.
    ///
    /// Matching is case-insensitive, NFC-normalised, finds words inside longer words, handles
    /// one- and two-syllable Korean words and initial consonants (`ㅎㄱ` finds 한강); what the
    /// user types is searched for literally (see `SQLiteSearchIndex`).
    ///
    /// - Parameters:
    ///   - keywords: Words separated by white space.
    ///   - scope: Shared courses (the default) or every course.
    ///   - sort: ``CourseSort/relevance`` (the default: title matches first), or a list order.
    ///   - page: Which page, of how many courses.
    /// - Throws: ``StoreError/invalidPage(limit:number:)``, ``StoreError/tooManyKeywords(found:limit:)``,
    ///   ``StoreError/keywordTooLong(_:limit:)``.
    public func search(
        keywords: String, scope: SearchScope = .shared, sort: CourseSort = .relevance,
        page: Page = Page()
    ) async throws -> [Course] {
        try Self.checkKeywords(keywords)
        let offset = try page.offset()
        return try await read { tx in
            try await tx.courses(
                ids: tx.searchIDs(
                    SearchRequest(keywords: keywords, scope: scope, sort: sort, limit: page.limit, offset: offset)))
        }
    }
}

extension CourseStore {
    /// The most distinct keywords a search takes: every keyword adds a join to the query, and a
    /// title holds 40 characters.
    public static let maximumKeywordCount = 16
    /// The longest keyword a search takes, in characters (a title holds 40; an address detail a
    /// few dozen).
    public static let maximumKeywordLength = 64

    /// Refuses keywords past ``maximumKeywordCount`` and ``maximumKeywordLength`` before any SQL
    /// runs, so a long query ends at once with a message that names the limit, never in an
    /// SQLite error.
    /// - Throws: ``StoreError/tooManyKeywords(found:limit:)``, ``StoreError/keywordTooLong(_:limit:)``.
    public static func checkKeywords(_ keywords: String) throws {
        let words = KoreanText.words(in: keywords)
        guard words.count <= maximumKeywordCount else {
            throw StoreError.tooManyKeywords(found: words.count, limit: maximumKeywordCount)
        }
        if let long = words.first(where: { $0.text.count > maximumKeywordLength }) {
            throw StoreError.keywordTooLong(long.text, limit: maximumKeywordLength)
        }
    }
}

extension Course {
    /// What the search index looks in.
    var searchFields: SearchFields {
        SearchFields(title: title, description: description, departure: departure?.searchableParts ?? [])
    }

    /// The text search looks in: the title, the description and each departure part, each
    /// normalised as search normalises keywords (``KoreanText/normalize(_:)``), one per line. A
    /// keyword never holds white space, so it occurs in this text exactly when it occurs in one
    /// of the fields. What the discovery page searches.
    package var searchKey: String {
        let row = SearchText(fields: searchFields)
        return [row.title, row.description, row.departure].joined(separator: "\n")
    }
}

extension CourseStore {
    /// Merges the search index into one segment: worth it after a bulk import, when many
    /// transactions have each added a segment that every query would look in. Takes about a
    /// second per 100,000 courses.
    /// - Throws: ``StoreError/database(_:)``.
    public func optimizeSearch() async throws {
        try await backend.optimizeSearch()
    }

    /// `runnect db optimize`: the backend's upkeep after bulk imports. SQLite merges the search
    /// index's segments into one (``optimizeSearch()``), which every query looks in; PostgreSQL
    /// (as the tables' owner) rebuilds the near-me box index and vacuums and analyses the tables.
    /// - Parameter stepDone: Called as each step ends.
    /// - Throws: ``StoreError/database(_:)``.
    public func optimize(
        stepDone: @escaping @Sendable (OptimizeReport.Step) -> Void = { _ in }
    ) async throws -> OptimizeReport {
        try await backend.optimize(stepDone: stepDone)
    }

    /// Segments of the search's token index, which each query term is looked up in (a figure of
    /// the benchmarks; ``optimizeSearch()`` merges them into one); 0 where the index has none.
    package func searchTokenIndexSegments() async throws -> Int {
        try await backend.searchIndexSegments()
    }
}
