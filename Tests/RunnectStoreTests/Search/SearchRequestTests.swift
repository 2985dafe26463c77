import Testing

@testable import RunnectStore

/// The value both backends' searches take, and the tier order both page relevance by.
@Suite("Search: the request and the relevance tiers")
struct SearchRequestTests {
    @Test("blank keywords or an empty page ask nothing; a negative offset counts as 0")
    func guards() {
        #expect(SearchRequest(keywords: " \t", scope: .all, sort: .date, limit: 10, offset: 0).asksNothing)
        #expect(SearchRequest(keywords: "한강", scope: .all, sort: .date, limit: 0, offset: 0).asksNothing)
        let request = SearchRequest(keywords: "한강  ㅇㄹㅍ", scope: .shared, sort: .scrap, limit: 5, offset: -3)
        #expect(!request.asksNothing)
        #expect(request.words.map(\.text) == ["한강", "ㅇㄹㅍ"])
        #expect(request.offset == 0 && request.wanted == 5)
        #expect(SearchRequest(keywords: "a", scope: .all, sort: .date, limit: 20, offset: 40).wanted == 60)
    }

    @Test("tiers: more keywords in the title first, then more in the departure, (k + 1)² of them")
    func relevanceOrder() {
        let order = SearchTier.relevanceOrder(keywords: 2).map { [$0.inTitle, $0.inDeparture] }
        #expect(order == [[2, 2], [2, 1], [2, 0], [1, 2], [1, 1], [1, 0], [0, 2], [0, 1], [0, 0]])
        #expect(SearchTier.relevanceOrder(keywords: 0).map { [$0.inTitle, $0.inDeparture] } == [[0, 0]])
        #expect(SearchTier.relevanceOrder(keywords: 3).count == 16)
        #expect(SearchTier(inTitle: 1, inDeparture: 0).holds(inTitle: 1, inDeparture: 0))
        #expect(!SearchTier(inTitle: 1, inDeparture: 0).holds(inTitle: 1, inDeparture: 1))
    }
}
