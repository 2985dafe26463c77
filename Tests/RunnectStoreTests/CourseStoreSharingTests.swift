import Foundation
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

@Suite("Store: ownership, upload and scrap")
struct CourseStoreSharingTests {
    @Test("PostgreSQL: the cases of this suite's parameterised tests", .postgresCases)
    func postgresCases() {
        #expect(StoreKind.available.contains(.postgres))
    }

    @Test(
        "only the owner can rename, delete, upload or unupload; nothing changes otherwise",
        arguments: StoreKind.available)
    func ownership(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b"]) { fixture in
            let (a, b) = (fixture.stores[0], fixture.stores[1])
            let course = try await a.draw(points: taps(seed: 1), title: "a의 코스")
            let before = try fixture.dump()
            let refused = StoreError.notFound(course.id)
            await #expect(throws: refused) { try await b.rename(id: course.id, title: "b's now") }
            await #expect(throws: refused) { try await b.delete(ids: [course.id]) }
            await #expect(throws: refused) { try await b.upload(id: course.id, title: "b's now", description: "mine") }
            #expect(try fixture.dump() == before)

            _ = try await a.upload(id: course.id, title: "a의 코스", description: "공유")
            let shared = try fixture.dump()
            let notOwner = StoreError.notOwner(id: course.id, owner: a.user)
            await #expect(throws: notOwner) { try await b.unupload(id: course.id) }
            await #expect(throws: notOwner) { try await b.rename(id: course.id, title: "b's now") }
            await #expect(throws: notOwner) { try await b.delete(ids: [course.id]) }
            #expect(try fixture.dump() == shared)

            // Anyone can read it.
            await #expect(try b.course(id: course.id).title == "a의 코스")
            await #expect(try b.activity(id: course.id) == (try a.activity(id: course.id)))
        }
    }

    @Test("rename changes the title only, within the title rules", arguments: StoreKind.available)
    func rename(kind: StoreKind) async throws {
        try await withStores(kind) { fixture in
            let store = fixture.stores[0]
            let course = try await store.draw(points: taps(seed: 1), title: "first")
            let renamed = try await store.rename(id: course.id, title: "  둘째 이름 ")
            var expected = course
            expected.title = "둘째 이름"
            #expect(renamed == expected)
            await #expect(try store.course(id: course.id) == expected)
            await #expect(throws: StoreError.invalidTitle("")) { try await store.rename(id: course.id, title: "") }
            await #expect(throws: StoreError.notFound(99)) { try await store.rename(id: 99, title: "x") }
            await #expect(try store.course(id: course.id) == expected)
        }
    }

    @Test("delete is all or nothing, and takes the scraps along", arguments: StoreKind.available)
    func delete(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b"]) { fixture in
            let (a, b) = (fixture.stores[0], fixture.stores[1])
            let first = try await a.draw(points: taps(seed: 1), title: "one")
            let second = try await a.draw(points: taps(seed: 2), title: "two")
            let theirs = try await b.draw(points: taps(seed: 3), title: "b's")
            let before = try fixture.dump()
            await #expect(throws: StoreError.notFound(theirs.id)) {
                try await a.delete(ids: [first.id, theirs.id])
            }
            await #expect(throws: StoreError.notFound(42)) { try await a.delete(ids: [first.id, 42]) }
            #expect(try fixture.dump() == before)

            _ = try await a.upload(id: second.id, title: "two", description: "shared")
            _ = try await b.scrap(id: second.id)
            try await a.delete(ids: [first.id, second.id, first.id])
            try await a.delete(ids: [])
            await #expect(throws: StoreError.notFound(first.id)) { try await a.course(id: first.id) }
            await #expect(throws: StoreError.notFound(second.id)) { try await a.activity(id: second.id) }
            #expect(try fixture.rowCount("scrap") == 0)
            await #expect(try b.list(.scrapped).isEmpty)
            await #expect(try a.list(.mine(uploaded: nil)).isEmpty)
            await #expect(try b.list(.mine(uploaded: nil)).map(\.id) == [theirs.id])
        }
    }

    @Test("upload needs a 1–40 character title and a description, once", arguments: StoreKind.available)
    func upload(kind: StoreKind) async throws {
        try await withStores(kind) { fixture in
            let store = fixture.stores[0]
            let course = try await store.importFile(path: SampleTracks.path("banpo_hangang_night_run.gpx"))
            await #expect(throws: StoreError.invalidTitle("")) {
                try await store.upload(id: course.id, title: "", description: "d")
            }
            await #expect(throws: StoreError.invalidTitle(String(repeating: "x", count: 41))) {
                try await store.upload(id: course.id, title: String(repeating: "x", count: 41), description: "d")
            }
            await #expect(throws: StoreError.emptyDescription) {
                try await store.upload(id: course.id, title: "t", description: " \n ")
            }
            await #expect(try store.course(id: course.id) == course)

            let start = Date()
            let shared = try await store.upload(id: course.id, title: "반포 달빛 러닝", description: "한강 야경 10K")
            #expect(shared.isUploaded)
            #expect(shared.title == "반포 달빛 러닝" && shared.description == "한강 야경 10K")
            let uploadedAt = try #require(shared.uploadedAt)
            #expect(uploadedAt.timeIntervalSince(start) > -1 && uploadedAt.timeIntervalSince(start) < 60)
            #expect(shared.createdAt == course.createdAt)
            await #expect(throws: StoreError.alreadyUploaded(course.id)) {
                try await store.upload(id: course.id, title: "again", description: "again")
            }
            await #expect(try store.course(id: course.id) == shared)
            await #expect(throws: StoreError.notFound(77)) {
                try await store.upload(id: 77, title: "t", description: "d")
            }
        }
    }

    @Test("scraps: shared courses only, once per user, counted, cleared by unupload", arguments: StoreKind.available)
    func scraps(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b", "c"]) { fixture in
            let (a, b, c) = (fixture.stores[0], fixture.stores[1], fixture.stores[2])
            let course = try await a.draw(points: taps(seed: 1), title: "잠실 한강공원")
            let unshared = StoreError.notFound(course.id)

            await #expect(throws: unshared) { try await b.scrap(id: course.id) }
            await #expect(throws: StoreError.notUploaded(course.id)) { try await a.unupload(id: course.id) }
            _ = try await a.upload(id: course.id, title: "잠실 한강공원", description: "강변")

            let scrappedByB = try await b.scrap(id: course.id)
            #expect(scrappedByB.scrapCount == 1 && scrappedByB.isScrapped)
            await #expect(throws: StoreError.alreadyScrapped(course.id)) { try await b.scrap(id: course.id) }
            await #expect(try c.scrap(id: course.id).scrapCount == 2)
            // isScrapped is per user; the owner may scrap a shared course too.
            await #expect(try a.course(id: course.id).isScrapped == false)
            await #expect(try a.course(id: course.id).scrapCount == 2)
            await #expect(try a.scrap(id: course.id).scrapCount == 3)
            await #expect(try b.list(.scrapped).map(\.id) == [course.id])

            let unscrapped = try await b.unscrap(id: course.id)
            #expect(unscrapped.scrapCount == 2 && !unscrapped.isScrapped)
            await #expect(throws: StoreError.notScrapped(course.id)) { try await b.unscrap(id: course.id) }
            await #expect(try b.list(.scrapped).isEmpty)

            let privateCourse = try await a.unupload(id: course.id)
            #expect(!privateCourse.isUploaded && privateCourse.uploadedAt == nil)
            #expect(privateCourse.scrapCount == 0 && !privateCourse.isScrapped)
            #expect(try fixture.rowCount("scrap") == 0)
            await #expect(try c.list(.scrapped).isEmpty)
            await #expect(throws: StoreError.notFound(course.id)) { try await c.course(id: course.id) }
            await #expect(throws: unshared) { try await c.scrap(id: course.id) }
            await #expect(throws: StoreError.notFound(course.id)) {
                try await c.unscrap(id: course.id)
            }
            await #expect(throws: StoreError.notFound(5)) { try await c.scrap(id: 5) }

            // Shared again: counting starts from zero.
            _ = try await a.upload(id: course.id, title: "잠실 한강공원", description: "다시 공유")
            await #expect(try c.scrap(id: course.id).scrapCount == 1)
        }
    }

    @Test("every store error has a message that names what to do")
    func messages() {
        let errors: [StoreError] = [
            .notFound(3), .notOwner(id: 3, owner: "a"), .alreadyUploaded(3), .notUploaded(3), .notShared(3),
            .alreadyScrapped(3), .notScrapped(3), .invalidTitle(""), .emptyDescription, .invalidDeparture("서울"),
            .tooFewPoints(found: 1), .invalidCoordinate(index: 0, Coordinate(latitude: 91, longitude: 0)),
            .emptyActivity, .cannotEncode("x"), .invalidPage(limit: 0, number: 1), .duplicate(existingID: 3),
            .newerSchema(found: 2, supported: 1), .cannotOpen(path: "/x", reason: "y"),
            .corruptGeometry(id: 3, reason: "z"), .corruptRecord(id: 3, reason: "z"),
            .database("disk full"), .tooFewPositions(distinct: 1, points: 5000), .noStore(path: "/x"),
            .noFolder(path: "/x/y.sqlite", folder: "/x"),
        ]
        for error in errors {
            #expect(!error.description.isEmpty)
        }
        #expect(
            StoreError.notOwner(id: 3, owner: "a").description == "course #3 belongs to a; only its owner can change it"
        )
        #expect(StoreError.newerSchema(found: 2, supported: 1).description.contains("upgrade runnect"))
    }
}
