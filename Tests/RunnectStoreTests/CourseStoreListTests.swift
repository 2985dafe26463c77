import Foundation
import GRDB
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

@Suite("Store: list scopes, sorts and pages")
struct CourseStoreListTests {
    @Test("PostgreSQL: the cases of this suite's parameterised tests", .postgresCases)
    func postgresCases() {
        #expect(StoreKind.available.contains(.postgres))
    }

    /// a owns 6 courses (ids 1…6; 2, 4, 6 shared), b owns 3 (ids 7…9; 8 shared). Course i has
    /// i + 1 taps 1 km apart, so distances grow with the id, except course 5 (2 taps 450 m apart),
    /// the shortest.
    static func populate(_ fixture: StoreFixture) async throws -> (a: CourseStore, b: CourseStore) {
        let (a, b) = (fixture.stores[0], fixture.stores[1])
        for i in 1...9 {
            let store = i <= 6 ? a : b
            let count = i == 5 ? 2 : i + 1
            let step = i == 5 ? 0.004 : 0.009
            let points = (0..<count).map {
                Coordinate(latitude: 37.5 + Double($0) * step, longitude: 127 + Double(i) * 1e-4)
            }
            let course = try await store.draw(points: points, title: "course \(i)")
            #expect(course.id == Int64(i))
            if [2, 4, 6, 8].contains(i) {
                _ = try await store.upload(id: course.id, title: "shared \(i)", description: "d")
            }
        }
        return (a, b)
    }

    /// 2025-05-02 12:00:00 UTC: a date some tests give several courses, so that they tie.
    static let sameInstant = Date(timeIntervalSince1970: 1_746_187_200)

    @Test("scopes: mine (all, shared, private), scrapped, shared", arguments: StoreKind.available)
    func scopes(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b"]) { fixture in
            let (a, b) = try await Self.populate(fixture)
            _ = try await a.scrap(id: 8)
            _ = try await a.scrap(id: 2)
            func ids(_ store: CourseStore, _ scope: CourseListScope) async throws -> [Int64] {
                try await store.list(scope, page: Page(limit: 100)).map(\.id)
            }
            await #expect(try ids(a, .mine(uploaded: nil)) == [6, 5, 4, 3, 2, 1])
            await #expect(try ids(a, .mine(uploaded: true)) == [6, 4, 2])
            await #expect(try ids(a, .mine(uploaded: false)) == [5, 3, 1])
            await #expect(try ids(b, .mine(uploaded: nil)) == [9, 8, 7])
            await #expect(try ids(a, .scrapped) == [8, 2])
            await #expect(try ids(b, .scrapped) == [])
            await #expect(try ids(a, .shared) == [8, 6, 4, 2])
            await #expect(try ids(b, .shared) == [8, 6, 4, 2])
            await #expect(try a.list(.scrapped).allSatisfy(\.isScrapped))
            await #expect(try b.list(.shared).allSatisfy { !$0.isScrapped })
        }
    }

    @Test(
        "sorts: date newest first, scrap most first, distance shortest first; ties by id",
        arguments: StoreKind.available)
    func sorts(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b", "c"]) { fixture in
            let (a, b) = try await Self.populate(fixture)
            let c = fixture.stores[2]
            for store in [a, b, c] { _ = try await store.scrap(id: 4) }
            for store in [b, c] { _ = try await store.scrap(id: 2) }
            _ = try await c.scrap(id: 8)
            _ = try await b.scrap(id: 6)
            _ = try await c.scrap(id: 6)
            // Every course at the same instant: dates tie, and so do scraps 2 and 6.
            try fixture.setCreatedAt(Self.sameInstant, ids: Array(1...9))

            func ids(_ scope: CourseListScope, _ sort: CourseSort) async throws -> [Int64] {
                try await a.list(scope, sort: sort, page: Page(limit: 100)).map(\.id)
            }
            await #expect(try ids(.shared, .date) == [8, 6, 4, 2])
            await #expect(try ids(.shared, .scrap) == [4, 6, 2, 8])
            await #expect(try ids(.shared, .distance) == [2, 4, 6, 8])
            await #expect(try ids(.shared, .relevance) == [8, 6, 4, 2])
            await #expect(try ids(.mine(uploaded: nil), .distance) == [5, 1, 2, 3, 4, 6])
            await #expect(try ids(.mine(uploaded: nil), .scrap) == [4, 6, 2, 5, 3, 1])
            await #expect(try a.list(.shared, sort: .scrap).map(\.scrapCount) == [3, 2, 2, 1])
            let distances = try await a.list(.mine(uploaded: nil), sort: .distance).map(\.stats.distanceMeters)
            #expect(distances == distances.sorted())
        }
        // Dates that differ: newest first.
        try await withStores(kind) { fixture in
            let store = fixture.stores[0]
            for i in 1...3 { _ = try await store.draw(points: taps(seed: i), title: "\(i)") }
            for id in 1...3 {  // 2024-01-03, 2024-01-02, 2024-01-01
                try fixture.setCreatedAt(
                    Date(timeIntervalSince1970: 1_704_067_200 + Double(3 - id) * 86_400), ids: [Int64(id)])
            }
            await #expect(try store.list(.mine(uploaded: nil), sort: .date).map(\.id) == [1, 2, 3])
            await #expect(
                try store.list(.mine(uploaded: nil), sort: .date).first?.createdAt
                    == Date(timeIntervalSince1970: 1_704_240_000))
        }
    }

    @Test("pages cover the list once, in order, whatever their size", arguments: StoreKind.available)
    func pages(kind: StoreKind) async throws {
        try await withStores(kind) { fixture in
            let store = fixture.stores[0]
            for i in 1...23 { _ = try await store.draw(points: taps(seed: i), title: "course \(i)") }
            try fixture.setCreatedAt(Self.sameInstant, ids: Array(stride(from: 3, through: 23, by: 3)))
            for sort in CourseSort.allCases {
                let all = try await store.list(.mine(uploaded: nil), sort: sort, page: Page(limit: 100)).map(\.id)
                #expect(all.count == 23 && Set(all).count == 23)
                for limit in [1, 5, 10, 23, 30] {
                    var paged: [Int64] = []
                    var number = 1
                    while true {
                        let page = try await store.list(
                            .mine(uploaded: nil), sort: sort, page: Page(limit: limit, number: number))
                        #expect(page.count <= limit)
                        if page.isEmpty { break }
                        paged += page.map(\.id)
                        number += 1
                    }
                    #expect(paged == all, "sort \(sort), limit \(limit)")
                }
            }
            await #expect(try store.list(.mine(uploaded: nil)).count == 10)  // the service's page size
            await #expect(try store.list(.mine(uploaded: nil), page: Page(limit: 10, number: 3)).count == 3)
            await #expect(throws: StoreError.invalidPage(limit: 0, number: 1)) {
                try await store.list(.shared, page: Page(limit: 0))
            }
            await #expect(throws: StoreError.invalidPage(limit: 10, number: 0)) {
                try await store.list(.shared, page: Page(number: 0))
            }
            await #expect(throws: StoreError.invalidPage(limit: Int.max, number: 3)) {
                try await store.list(.shared, page: Page(limit: .max, number: 3))
            }
        }
    }

    /// SQLite-only: SQLite's query plans.
    @Test(
        "shared lists read an index in every order, with no sort step", arguments: [CourseSort.date, .scrap, .distance])
    func sharedListsUseIndexes(sort: CourseSort) async throws {
        try await withTemporaryStore { store, _ in
            let plan = try store.pool.read { db in
                let request = SQLiteTransaction.listRequest(.shared, sort: sort, user: store.user).limit(10, offset: 20)
                    .select(CourseTableRow.Columns.id, as: Int64.self)
                let statement = try request.makePreparedRequest(db).statement
                return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + statement.sql, arguments: statement.arguments)
                    .map { $0["detail"] as String }
            }
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
            #expect(plan.contains { $0.contains("course_shared_") }, "\(plan)")
        }
    }

    @Test(
        "readCourses: the courses of a scope in a list order, their activities from the same snapshot",
        arguments: StoreKind.available)
    func readCourses(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b"]) { fixture in
            let (a, b) = try await Self.populate(fixture)
            _ = try await b.scrap(id: 4)
            let shared = try await b.readCourses(in: .shared) { courses, activity in
                try await courses.asyncMap { ($0, try await activity($0.id)) }
            }
            #expect(shared.map(\.0.id) == [8, 6, 4, 2])
            #expect(shared.map(\.0) == (try await b.list(.shared, page: Page(limit: 100))))
            for (course, activity) in shared { await #expect(try activity == a.activity(id: course.id)) }
            await #expect(
                try a.readCourses(in: .all, sort: .distance) { courses, _ in courses.map(\.id) }
                    == [5, 1, 2, 3, 4, 6, 8])  // b's private courses (7, 9) are not a's to read
            // A course deleted meanwhile is still there in the snapshot read before.
            let read = try await a.readCourses(in: .all) { courses, activity in
                _ = try await a.delete(ids: [1])
                return try await activity(1)
            }
            #expect(read.courseSegments.first?.count == 2)
            await #expect(throws: StoreError.notFound(1)) {
                try await a.readCourses(in: .all) { _, activity in try await activity(1) }
            }
            try fixture.breakGeometry(id: 2)
            await #expect(throws: StoreError.self) {
                try await a.readCourses(in: .shared) { _, activity in try await activity(2) }
            }
        }
    }
}
