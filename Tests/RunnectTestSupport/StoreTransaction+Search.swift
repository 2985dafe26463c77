import RunnectStore

extension StoreTransaction {
    /// ``StoreTransaction/searchIDs(_:)`` of a request made from its parts, as tests write them.
    public func searchIDs(
        keywords: String, scope: SearchScope, sort: CourseSort, limit: Int, offset: Int
    ) async throws -> [Int64] {
        try await searchIDs(SearchRequest(keywords: keywords, scope: scope, sort: sort, limit: limit, offset: offset))
    }
}
