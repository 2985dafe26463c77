import Foundation
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

/// How the store keeps the search index in step with its courses (search quality itself is
/// tested with the index, in the `Search…` test files).
@Suite("Store: search index kept in step")
struct CourseStoreSearchTests {
    @Test("PostgreSQL: the cases of this suite's parameterised tests", .postgresCases)
    func postgresCases() {
        #expect(StoreKind.available.contains(.postgres))
    }

    @Test(
        "import, draw, rename, upload, unupload and delete keep search results right", arguments: StoreKind.available)
    func lifecycle(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b"]) { fixture in
            let (a, b) = (fixture.stores[0], fixture.stores[1])
            let banpo = try await a.importFile(
                path: SampleTracks.path("banpo_hangang_night_run.gpx"),
                departure: try Departure(
                    address: "서울 서초구 반포동 신반포로11길 40",
                    name: "반포한강공원"))
            let drawn = try await a.draw(points: taps(seed: 1), title: "Jamsil Sunrise", description: "잠실 아침 러닝")
            func ids(_ store: CourseStore, _ keywords: String, _ scope: SearchScope = .shared) async throws -> [Int64] {
                try await store.search(keywords: keywords, scope: scope, sort: .date).map(\.id)
            }

            // Private courses are found with `.all` only.
            await #expect(try ids(a, "한강") == [])
            await #expect(try ids(a, "한강", .all) == [banpo.id])
            await #expect(try ids(a, "반포한강공원", .all) == [banpo.id])  // the departure's name
            await #expect(try ids(a, "신반포로11길", .all) == [banpo.id])  // its detail
            await #expect(try ids(a, "아침", .all) == [drawn.id])  // a description

            _ = try await a.upload(id: banpo.id, title: "Banpo Moonlight", description: "한강 야경 10K")
            _ = try await a.upload(id: drawn.id, title: "Jamsil Sunrise", description: "잠실 아침 러닝")
            await #expect(try ids(b, "moonlight") == [banpo.id])
            await #expect(try ids(b, "달빛") == [])  // the title before upload is gone
            await #expect(try ids(b, "야경") == [banpo.id])
            let found = try await b.search(keywords: "sunrise")
            #expect(found.map(\.id) == [drawn.id])
            await #expect(found.first == (try b.course(id: drawn.id)))

            _ = try await b.scrap(id: drawn.id)
            await #expect(try b.search(keywords: "잠실").first?.isScrapped == true)
            await #expect(try a.search(keywords: "잠실").first?.isScrapped == false)

            _ = try await a.rename(id: drawn.id, title: "석촌호수 한 바퀴")
            await #expect(try ids(b, "sunrise") == [])
            await #expect(try ids(b, "석촌") == [drawn.id])
            await #expect(Set(try ids(b, "서울", .all)) == [banpo.id])

            _ = try await a.unupload(id: banpo.id)
            await #expect(try ids(b, "moonlight") == [])
            await #expect(try ids(a, "moonlight", .all) == [banpo.id])
            // Another runner's private course is not theirs to find, on either backend.
            await #expect(try ids(b, "moonlight", .all) == [])

            try await a.delete(ids: [banpo.id, drawn.id])
            await #expect(try ids(b, "moonlight", .all) == [])
            await #expect(try ids(b, "석촌", .all) == [])
            await #expect(try a.search(keywords: "ㅅㅊ", scope: .all).isEmpty)
        }
    }

    /// A title whose syllable 각 is written as 가 and a trailing jamo (U+AC00 U+11A8), which
    /// Foundation's NFC on Linux leaves apart: found by the composed keyword, its initials and
    /// the same mixed form, on both backends.
    @Test("a syllable and a trailing jamo are found as the one syllable", arguments: StoreKind.available)
    func trailingJamoIsFound(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a"]) { fixture in
            let store = fixture.stores[0]
            let drawn = try await store.draw(points: taps(seed: 2), title: "\u{AC00}\u{11A8}시탈 둘레길", description: nil)
            for keyword in ["각시탈", "각", "ㄱㅅㅌ", "각ㅅ", "\u{AC00}\u{11A8}시"] {
                await #expect(try store.search(keywords: keyword, scope: .all).map(\.id) == [drawn.id], "\(keyword)")
            }
            await #expect(try store.search(keywords: "가시", scope: .all).isEmpty)
        }
    }

    @Test("search pages and sorts through the store", arguments: StoreKind.available)
    func pagesAndSorts(kind: StoreKind) async throws {
        try await withStores(kind) { fixture in
            let store = fixture.stores[0]
            for i in 1...12 {
                let course = try await store.draw(points: taps(seed: i, count: 2 + i % 5), title: "한강 코스 \(i)")
                _ = try await store.upload(id: course.id, title: course.title, description: "강변")
            }
            let all = try await store.search(keywords: "한강", sort: .date, page: Page(limit: 100)).map(\.id)
            #expect(all == Array((1...12).reversed()).map(Int64.init))
            let pages = try await (1...3).asyncFlatMap {
                try await store.search(keywords: "한강", sort: .date, page: Page(limit: 5, number: $0))
            }
            #expect(pages.map(\.id) == all)
            let byDistance = try await store.search(keywords: "코스", sort: .distance, page: Page(limit: 100))
            #expect(byDistance.map(\.stats.distanceMeters) == byDistance.map(\.stats.distanceMeters).sorted())
            await #expect(throws: StoreError.invalidPage(limit: 0, number: 1)) {
                try await store.search(keywords: "x", page: Page(limit: 0))
            }
            await #expect(try store.search(keywords: "'; DROP TABLE course; --", scope: .all).isEmpty)
            #expect(try fixture.rowCount("course") == 12)
        }
    }
}
