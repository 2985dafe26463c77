import GRDB

extension CourseStore {
    // MARK: - Search

    /// Courses whose title, description or departure match every keyword.
    ///
    /// Matching is case-insensitive, NFC-normalised, finds words inside longer words, handles
    /// one- and two-syllable Korean words and initial consonants (`ㅎㄱ` finds 한강); what the
    /// user types is searched for literally (see `SearchIndex`).
    ///
    /// - Parameters:
    ///   - keywords: Words separated by white space.
    ///   - scope: Shared courses (the default) or every course.
    ///   - sort: ``CourseSort/relevance`` (the default: title matches first), or a list order.
    ///   - page: Which page, of how many courses.
    /// - Throws: ``StoreError/invalidPage(limit:number:)``.
    public func search(keywords: String, scope: SearchScope = .shared, sort: CourseSort = .relevance,
                       page: Page = Page()) throws -> [Course] {
        let offset = try page.offset()
        return try read { db in
            let ids = try SearchIndex.search(db, keywords: keywords, scope: scope, user: user, sort: sort,
                                             limit: page.limit, offset: offset)
            return try fetchCourses(db, ids: ids)
        }
    }
}

extension Course {
    /// What the search index looks in.
    var searchFields: SearchFields {
        SearchFields(title: title, description: description, departure: departure?.searchableParts ?? [])
    }
}

extension CourseStore {
    /// Merges the search index into one segment: worth it after a bulk import, when many
    /// transactions have each added a segment that every query would look in. Takes about a
    /// second per 100,000 courses.
    /// - Throws: ``StoreError/database(_:)``.
    public func optimizeSearch() throws {
        try write { try SearchIndex.optimize($0) }
    }
}
