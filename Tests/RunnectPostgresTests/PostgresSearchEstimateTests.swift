import Foundation
import RunnectKit
import RunnectStore
import RunnectTestSupport
import Testing

@testable import RunnectPostgres

/// A search's estimate of a token (`runnect_search_estimate`, schema version 16) tells a runner
/// nothing of another runner's private courses, and reads no setting of the runner's.
@Suite(.postgres) struct PostgresSearchEstimateTests {
    @Test func anEstimateCountsOnlyWhatTheCallerMayRead() async throws {
        let store = try await PostgresStoreDatabase()
        let (_, readerURL) = try await store.addRunner("reader")
        let (_, holderURL) = try await store.addRunner("holder")
        let reader = try await PostgresBackend(url: readerURL)
        let holder = try await PostgresBackend(url: holderURL)
        var added = 0
        func add(_ title: String, to backend: PostgresBackend) async throws -> Int64 {
            added += 1
            let points = (0..<4).map {
                TrackPoint(Coordinate(latitude: 37.5 + Double(added) * 0.001, longitude: 127 + Double($0) * 0.001))
            }
            let draft = try CourseDraft(
                activity: Activity(format: .pointsText, routes: [Route(points: points)]),
                contentHash: String(format: "%064x", added), title: title, description: nil,
                departure: Departure(region: "서울", city: "송파구", town: "방이동"))
            return try await backend.write { try await $0.insertCourse(draft) }.id
        }
        // The holder's 12 private courses hold the token of `ㅇㄹㅍ` (올림픽); the reader's 30 do not.
        let held = try await (0..<12).asyncMap { try await add("올림픽공원 러닝 \($0)", to: holder) }
        for n in 0..<30 { _ = try await add("한강 러닝 \(n)", to: reader) }
        try store.database.adminSQL("ANALYZE course_search")

        let search = PostgresSearch(words: KoreanText.words(in: "ㅇㄹㅍ"))
        let tier = SearchTier(inTitle: 1, inDeparture: 0)
        func readsFirst(_ backend: PostgresBackend, wanted: Int) async throws -> Bool {
            try await backend.read { transaction in
                let transaction = try #require(transaction as? PostgresTransaction)
                return try await transaction.readsFirst(
                    search, tier: tier, wanted: wanted, entries: try transaction.searchEntries())
            }
        }
        // The holder may read 12: a page of 5 comes from the tier first. The reader may read
        // none: nothing to read first (version 13's estimate counted the 12 and said yes).
        await #expect(try readsFirst(holder, wanted: 5))
        await #expect(try !readsFirst(reader, wanted: 5))

        // Once 6 are shared, the reader may read 6 (a new backend: estimates are kept a backend).
        for id in held.prefix(6) {
            _ = try await CourseStore(backend: holder).upload(id: id, title: "올림픽공원 러닝", description: "공원 한 바퀴")
        }
        await #expect(try readsFirst(try PostgresBackend(url: readerURL), wanted: 5))
        await #expect(try !readsFirst(try PostgresBackend(url: readerURL), wanted: 7))

        // No setting of the runner's but the role (which `SET ROLE` guards) is read.
        let function = try store.database.adminSQL(
            """
            SELECT prosrc LIKE '%runnect.%', proconfig::text LIKE '%runnect.%',
                   regexp_replace(prosrc, 'current_setting\\(''role''\\)', '', 'g') LIKE '%current_setting%'
            FROM pg_proc WHERE proname = 'runnect_search_estimate'
            """)
        #expect(function.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "f|f|f", "\(function.stderr)")
    }
}
