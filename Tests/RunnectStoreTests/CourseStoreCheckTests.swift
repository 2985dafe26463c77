import Foundation
import RunnectKit
import RunnectPostgres
import RunnectTestSupport
import Testing

@testable import RunnectStore

/// `CourseStore.check(imagesFolder:)` (`runnect db check`): a store the store itself wrote
/// passes, on both backends; damage made beneath the store (a search entry's text or tokens, a
/// counter, a search entry removed, an image file missing) is found and named.
@Suite("the store's integrity check")
struct CourseStoreCheckTests {
    /// A store with something in every table the check reads: two courses of `a` with images,
    /// one shared and scrapped by `b`, a run of `b` on it, and a third course of `a` that `b`
    /// ran, deleted (kept for `b`'s record, with its image). Returns the images' folder.
    func filled(_ fixture: StoreFixture, images folder: TemporaryFolder) async throws -> [String] {
        let (a, b) = (fixture.stores[0], fixture.stores[1])
        var names: [String] = []
        for seed in 0..<3 {
            let course = try await a.draw(points: taps(seed: seed), title: "석촌호수 코스 \(seed)", description: "호수 둘레")
            let name = String(format: "%032x.png", seed + 1)
            try await a.setImage(course: course.id, image: name)
            try Data([0x89, 0x50, 0x4E, 0x47]).write(to: folder.url.appendingPathComponent(name))
            names.append(name)
        }
        _ = try await a.upload(id: 1, title: "석촌호수 한 바퀴", description: "호수 둘레 2.7 km")
        _ = try await b.scrap(id: 1)
        _ = try await b.reportRun(course: 1, title: "아침", seconds: 1_800, paceSeconds: 360, fromSharedPage: true)
        _ = try await a.upload(id: 3, title: "곧 지울 코스", description: "x")
        _ = try await b.reportRun(course: 3, title: "저녁", seconds: 1_900, paceSeconds: 380, fromSharedPage: true)
        try await a.delete(ids: [3])
        return names
    }

    @Test(arguments: StoreKind.available)
    func aStoreTheStoreWrotePasses(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b"]) { fixture in
            let folder = try TemporaryFolder("runnect-check-images")
            _ = try await filled(fixture, images: folder)
            if kind == .postgres { try fixture.change(sqlite: "", postgres: "CREATE EXTENSION IF NOT EXISTS amcheck") }
            let report = try await fixture.ownersStore().check(imagesFolder: folder.url.path)
            #expect(report.isClean, "\(report.problemLines)")
            #expect(report.backend == kind.rawValue.replacingOccurrences(of: "postgres", with: "postgresql"))
            let images = try #require(report.checks.first { $0.name == "images" })
            #expect(images.examined == 3, "two courses' images and the deleted one's")
            let counters = try #require(report.checks.first { $0.name == "counters" })
            #expect(counters.examined == 2)
            #expect(report.checks.allSatisfy { $0.skipped == nil }, "\(report.checks)")
            if kind == .postgres {
                let indexes = try #require(report.checks.first { $0.name == "B-tree indexes (amcheck)" })
                #expect((indexes.examined ?? 0) > 10, "\(indexes)")
            }
            // The JSON a script reads: `ok` and each check.
            let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any]
            #expect(json?["ok"] as? Bool == true)
            #expect(try JSONDecoder().decode(StoreCheckReport.self, from: JSONEncoder().encode(report)) == report)
        }
    }

    @Test(arguments: StoreKind.available)
    func aDamagedSearchEntryIsNamed(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b"]) { fixture in
            let folder = try TemporaryFolder("runnect-check-images")
            _ = try await filled(fixture, images: folder)
            // Course 2's entry says another title than the one it was indexed under (SQLite),
            // or holds tokens of another text (PostgreSQL, where the tokens are the entry's own).
            try fixture.change(
                sqlite: "UPDATE course_search SET title = 'qqq zzz' WHERE course_id = 2",
                postgres: "UPDATE course_search SET tokens = ARRAY['t0', 't1'] WHERE course_id = 2")
            let report = try await fixture.ownersStore().check()
            #expect(!report.isClean)
            let named = report.problemLines.filter { $0.contains("course #2") }
            #expect(!named.isEmpty, "\(report.problemLines)")
            #expect(report.problemLines.allSatisfy { $0.contains("course #2") }, "\(report.problemLines)")
        }
    }

    @Test(arguments: StoreKind.available)
    func aMissingEntryAndAWrongCounterAreNamed(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b"]) { fixture in
            let folder = try TemporaryFolder("runnect-check-images")
            _ = try await filled(fixture, images: folder)
            try fixture.change(
                sqlite: "DELETE FROM course_search WHERE course_id = 2; UPDATE course SET scrap_count = 5 WHERE id = 1",
                postgres: """
                    DELETE FROM course_search WHERE course_id = 2;
                    SET session_replication_role = replica;
                    UPDATE course SET scrap_count = 5 WHERE id = 1
                    """)
            let report = try await fixture.ownersStore().check()
            let lines = report.problemLines
            #expect(lines.contains("search entries: course #2 has no search entry: searches never find it"), "\(lines)")
            #expect(lines.contains("counters: course #1's scrap count is 5 but it has 1 scrap(s)"), "\(lines)")
        }
    }

    @Test(arguments: StoreKind.available)
    func aMissingImageIsNamed(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b"]) { fixture in
            let folder = try TemporaryFolder("runnect-check-images")
            let names = try await filled(fixture, images: folder)
            try FileManager.default.removeItem(at: folder.url.appendingPathComponent(names[1]))
            // The deleted course's image, kept for b's record, is looked for too.
            try FileManager.default.removeItem(at: folder.url.appendingPathComponent(names[2]))
            try FileManager.default.createDirectory(
                at: folder.url.appendingPathComponent(names[2]), withIntermediateDirectories: false)
            let report = try await fixture.ownersStore().check(imagesFolder: folder.url.path)
            #expect(
                report.problemLines == [
                    "images: course #2's image \(names[1]) is not in \(folder.url.path)",
                    "images: deleted course #3's image \(folder.path(names[2])) is not a regular file",
                ])
            // Without the folder, images are not looked at.
            #expect(try await fixture.ownersStore().check().isClean)
        }
    }

    /// SQLite only: the FTS5 index's own structure, damaged in its shadow table.
    @Test func aDamagedSearchIndexPageIsFound() async throws {
        try await withStores(.sqlite, users: ["a", "b"]) { fixture in
            let folder = try TemporaryFolder("runnect-check-images")
            _ = try await filled(fixture, images: folder)
            try fixture.change(
                sqlite: "UPDATE course_search_token_data SET block = x'00010203' WHERE id > 10", postgres: "")
            let report = try await fixture.stores[0].check()
            let structure = try #require(report.checks.first { $0.name == "search index structure" })
            #expect(structure.problems.count == 1)
            #expect(structure.problems.first?.hasPrefix("the search index (course_search_token) is damaged") == true)
        }
    }

    /// PostgreSQL only: a runner sees part of the rows, so the check is the tables' owner's.
    @Test(.postgres) func aRunnerIsRefused() async throws {
        try await withStores(.postgres, users: ["a"]) { fixture in
            await #expect(throws: PostgresAdministrationError.self) { try await fixture.stores[0].check() }
        }
    }

    @Test(.postgresCases) func postgresCasesRan() {}
}
