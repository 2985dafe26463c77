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
            let course = try a.draw(points: taps(seed: 1), title: "a의 코스")
            let before = try fixture.dump()
            let refused = StoreError.notFound(course.id)
            #expect(throws: refused) { try b.rename(id: course.id, title: "b's now") }
            #expect(throws: refused) { try b.delete(ids: [course.id]) }
            #expect(throws: refused) { try b.upload(id: course.id, title: "b's now", description: "mine") }
            #expect(try fixture.dump() == before)

            _ = try a.upload(id: course.id, title: "a의 코스", description: "공유")
            let shared = try fixture.dump()
            let notOwner = StoreError.notOwner(id: course.id, owner: a.user)
            #expect(throws: notOwner) { try b.unupload(id: course.id) }
            #expect(throws: notOwner) { try b.rename(id: course.id, title: "b's now") }
            #expect(throws: notOwner) { try b.delete(ids: [course.id]) }
            #expect(try fixture.dump() == shared)

            // Anyone can read it.
            #expect(try b.course(id: course.id).title == "a의 코스")
            #expect(try b.activity(id: course.id) == (try a.activity(id: course.id)))
        }
    }

    @Test("rename changes the title only, within the title rules", arguments: StoreKind.available)
    func rename(kind: StoreKind) async throws {
        try await withStores(kind) { fixture in
            let store = fixture.stores[0]
            let course = try store.draw(points: taps(seed: 1), title: "first")
            let renamed = try store.rename(id: course.id, title: "  둘째 이름 ")
            var expected = course
            expected.title = "둘째 이름"
            #expect(renamed == expected)
            #expect(try store.course(id: course.id) == expected)
            #expect(throws: StoreError.invalidTitle("")) { try store.rename(id: course.id, title: "") }
            #expect(throws: StoreError.notFound(99)) { try store.rename(id: 99, title: "x") }
            #expect(try store.course(id: course.id) == expected)
        }
    }

    @Test("delete is all or nothing, and takes the scraps along", arguments: StoreKind.available)
    func delete(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b"]) { fixture in
            let (a, b) = (fixture.stores[0], fixture.stores[1])
            let first = try a.draw(points: taps(seed: 1), title: "one")
            let second = try a.draw(points: taps(seed: 2), title: "two")
            let theirs = try b.draw(points: taps(seed: 3), title: "b's")
            let before = try fixture.dump()
            #expect(throws: StoreError.notFound(theirs.id)) {
                try a.delete(ids: [first.id, theirs.id])
            }
            #expect(throws: StoreError.notFound(42)) { try a.delete(ids: [first.id, 42]) }
            #expect(try fixture.dump() == before)

            _ = try a.upload(id: second.id, title: "two", description: "shared")
            _ = try b.scrap(id: second.id)
            try a.delete(ids: [first.id, second.id, first.id])
            try a.delete(ids: [])
            #expect(throws: StoreError.notFound(first.id)) { try a.course(id: first.id) }
            #expect(throws: StoreError.notFound(second.id)) { try a.activity(id: second.id) }
            #expect(try fixture.rowCount("scrap") == 0)
            #expect(try b.list(.scrapped).isEmpty)
            #expect(try a.list(.mine(uploaded: nil)).isEmpty)
            #expect(try b.list(.mine(uploaded: nil)).map(\.id) == [theirs.id])
        }
    }

    @Test("upload needs a 1–40 character title and a description, once", arguments: StoreKind.available)
    func upload(kind: StoreKind) async throws {
        try await withStores(kind) { fixture in
            let store = fixture.stores[0]
            let course = try store.importFile(path: SampleTracks.path("banpo_hangang_night_run.gpx"))
            #expect(throws: StoreError.invalidTitle("")) {
                try store.upload(id: course.id, title: "", description: "d")
            }
            #expect(throws: StoreError.invalidTitle(String(repeating: "x", count: 41))) {
                try store.upload(id: course.id, title: String(repeating: "x", count: 41), description: "d")
            }
            #expect(throws: StoreError.emptyDescription) {
                try store.upload(id: course.id, title: "t", description: " \n ")
            }
            #expect(try store.course(id: course.id) == course)

            let start = Date()
            let shared = try store.upload(id: course.id, title: "반포 달빛 러닝", description: "한강 야경 10K")
            #expect(shared.isUploaded)
            #expect(shared.title == "반포 달빛 러닝" && shared.description == "한강 야경 10K")
            let uploadedAt = try #require(shared.uploadedAt)
            #expect(uploadedAt.timeIntervalSince(start) > -1 && uploadedAt.timeIntervalSince(start) < 60)
            #expect(shared.createdAt == course.createdAt)
            #expect(throws: StoreError.alreadyUploaded(course.id)) {
                try store.upload(id: course.id, title: "again", description: "again")
            }
            #expect(try store.course(id: course.id) == shared)
            #expect(throws: StoreError.notFound(77)) { try store.upload(id: 77, title: "t", description: "d") }
        }
    }

    @Test("scraps: shared courses only, once per user, counted, cleared by unupload", arguments: StoreKind.available)
    func scraps(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b", "c"]) { fixture in
            let (a, b, c) = (fixture.stores[0], fixture.stores[1], fixture.stores[2])
            let course = try a.draw(points: taps(seed: 1), title: "잠실 한강공원")
            let unshared = StoreError.notFound(course.id)

            #expect(throws: unshared) { try b.scrap(id: course.id) }
            #expect(throws: StoreError.notUploaded(course.id)) { try a.unupload(id: course.id) }
            _ = try a.upload(id: course.id, title: "잠실 한강공원", description: "강변")

            let scrappedByB = try b.scrap(id: course.id)
            #expect(scrappedByB.scrapCount == 1 && scrappedByB.isScrapped)
            #expect(throws: StoreError.alreadyScrapped(course.id)) { try b.scrap(id: course.id) }
            #expect(try c.scrap(id: course.id).scrapCount == 2)
            // isScrapped is per user; the owner may scrap a shared course too.
            #expect(try a.course(id: course.id).isScrapped == false)
            #expect(try a.course(id: course.id).scrapCount == 2)
            #expect(try a.scrap(id: course.id).scrapCount == 3)
            #expect(try b.list(.scrapped).map(\.id) == [course.id])

            let unscrapped = try b.unscrap(id: course.id)
            #expect(unscrapped.scrapCount == 2 && !unscrapped.isScrapped)
            #expect(throws: StoreError.notScrapped(course.id)) { try b.unscrap(id: course.id) }
            #expect(try b.list(.scrapped).isEmpty)

            let privateCourse = try a.unupload(id: course.id)
            #expect(!privateCourse.isUploaded && privateCourse.uploadedAt == nil)
            #expect(privateCourse.scrapCount == 0 && !privateCourse.isScrapped)
            #expect(try fixture.rowCount("scrap") == 0)
            #expect(try c.list(.scrapped).isEmpty)
            #expect(throws: StoreError.notFound(course.id)) { try c.course(id: course.id) }
            #expect(throws: unshared) { try c.scrap(id: course.id) }
            #expect(throws: StoreError.notFound(course.id)) {
                try c.unscrap(id: course.id)
            }
            #expect(throws: StoreError.notFound(5)) { try c.scrap(id: 5) }

            // Shared again: counting starts from zero.
            _ = try a.upload(id: course.id, title: "잠실 한강공원", description: "다시 공유")
            #expect(try c.scrap(id: course.id).scrapCount == 1)
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
