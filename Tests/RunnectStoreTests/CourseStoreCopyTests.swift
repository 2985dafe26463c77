import Foundation
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

@Suite("Copying a store")
struct CourseStoreCopyTests {
    /// Two runners' courses, shares, scraps and a record of a run, in a new store at `path`.
    static func fill(_ path: String) async throws -> (a: CourseStore, b: CourseStore) {
        let a = try await CourseStore(path: path, user: "minji")
        let b = try await CourseStore(path: path, user: "jisoo")
        let drawn = try await a.draw(points: taps(seed: 1), title: "한강 첫 코스", description: "반포에서")
        _ = try await a.upload(id: drawn.id, title: "한강 첫 코스", description: "반포에서 잠수교까지")
        let night = try await a.importFile(
            path: SampleTracks.path("banpo_hangang_night_run.gpx"),
            departure: try Departure(address: "서울 서초구 반포동 신반포로11길 40"))
        _ = try await a.upload(id: night.id, title: "반포 야간 달리기", description: "Night run")
        let other = try await b.draw(points: taps(seed: 2), title: "석촌호수 한 바퀴")
        _ = try await b.upload(id: other.id, title: "석촌호수 한 바퀴", description: "Seokchon lake loop")
        _ = try await b.draw(points: taps(seed: 3), title: "private")
        _ = try await b.scrap(id: drawn.id)
        _ = try await a.scrap(id: other.id)
        // A run of the night course, recorded by jisoo.
        let run = try CourseDraft(
            source: CourseSource(path: SampleTracks.path("banpo_hangang_night_run.gpx")), matching: RunMatching())
        #expect(run.isRun)
        let stored = try await b.store([run])
        guard case .success(.record(let recorded)) = stored.first else {
            Issue.record("the run was not recorded: \(stored)")
            return (a, b)
        }
        #expect(recorded.course.id == night.id)
        return (a, b)
    }

    /// What a user sees of a store, through its public API.
    static func view(_ store: CourseStore) async throws -> [String] {
        let page = Page(limit: 100)
        var lines = try await store.list(.mine(uploaded: nil), page: page).map { "mine \($0)" }
        lines += try await store.list(.shared, page: page).map {
            "shared \($0.id) \($0.title) \($0.scrapCount) \($0.isScrapped)"
        }
        lines += try await store.list(.scrapped, page: page).map { "scrapped \($0.id)" }
        lines += try await store.search(keywords: "한강", scope: .all, page: page).map { "search \($0.id)" }
        lines += try await store.search(keywords: "ㅅㅊ", page: page).map { "initials \($0.id)" }
        lines += try await store.records(page: page).map { "record \($0)" }
        for course in try await store.list(.mine(uploaded: nil), page: page) {
            lines.append("geometry \(course.id) \(try await store.activity(id: course.id).courseSegments.map(\.count))")
            lines.append("figures \(course.id) \(try await store.recordFigures(course: course.id))")
        }
        return lines
    }

    @Test("a copy keeps ids, owners, dates, sharing, scraps, records and hashes; each user sees the same")
    func copyKeepsEverything() async throws {
        try await withTemporaryDirectory { folder in
            let (a, b) = try await Self.fill(folder.appendingPathComponent("from.sqlite").path)
            let to = folder.appendingPathComponent("to.sqlite").path
            var steps: [CopyProgress] = []
            let summary = try await CourseStore(path: to, user: "admin").copy(from: a, batchSize: 2) {
                steps.append($0)
            }
            #expect(summary.courses == 4 && summary.records == 1 && summary.scraps == 2 && summary.users == 2)
            #expect(summary.coursesPresent == 0)
            #expect(steps.map(\.done) == [2, 4] && steps.allSatisfy { $0.total == 4 })
            let (viewA, viewB) = (try await Self.view(a), try await Self.view(b))
            #expect(viewA.count >= 12 && viewB.count >= 8)
            for source in [a, b] {
                let copy = try await CourseStore(path: to, user: source.user)
                await #expect(try Self.view(copy) == Self.view(source))
                await #expect(try copy.summary().courses == source.summary().courses)
            }
            // A new course in the copy gets an id above the copied ones.
            let next = try await CourseStore(path: to, user: "minji").draw(points: taps(seed: 9), title: "새 코스")
            #expect(next.id == 5)
        }
    }

    @Test(
        "copying again copies nothing; a different row under a copied id is refused, and nothing of its batch written")
    func copyIsIdempotentAndRefusesConflicts() async throws {
        try await withTemporaryDirectory { folder in
            let (a, _) = try await Self.fill(folder.appendingPathComponent("from.sqlite").path)
            let to = try await CourseStore(path: folder.appendingPathComponent("to.sqlite").path, user: "minji")
            try await to.copy(from: a)
            let before = try dumpDatabase(to)
            let again = try await to.copy(from: a)
            #expect(again.courses == 0 && again.records == 0 && again.scraps == 0)
            #expect(again.coursesPresent == 4 && again.recordsPresent == 1 && again.scrapsPresent == 2)
            #expect(try await dumpDatabase(to) == before)

            let other = try await CourseStore(path: folder.appendingPathComponent("other.sqlite").path, user: "minji")
            _ = try await other.draw(points: taps(seed: 5), title: "다른 코스")
            let otherBefore = try dumpDatabase(other)
            await #expect {
                try await other.copy(from: a)
            } throws: { error in
                guard case StoreError.copyConflict(kind: "course", id: 1, _) = error else { return false }
                return "\(error)".contains("cannot copy course #1: the destination holds minji's")
            }
            #expect(try dumpDatabase(other) == otherBefore)
        }
    }

    @Test("a course deleted under another runner's record is copied before the record; its id stays taken")
    func copyKeepsDeletedCourses() async throws {
        try await withTemporaryDirectory { folder in
            let (a, b) = try await Self.fill(folder.appendingPathComponent("from.sqlite").path)
            // The newest course (#5), which jisoo ran, deleted by its owner: the highest id is a deleted one.
            let path = SampleTracks.path("gyeongui_line_forest_gpx10.gpx")
            let loop = try await a.importFile(path: path)
            _ = try await a.upload(id: loop.id, title: "경의선 숲길", description: "Forest line")
            let run = try CourseDraft(source: CourseSource(path: path), matching: RunMatching())
            guard case .success(.record(let recorded)) = try await b.store([run]).first else {
                Issue.record("the run was not recorded")
                return
            }
            #expect(loop.id == 5 && recorded.course.id == 5)
            try await a.delete(ids: [5])
            let to = folder.appendingPathComponent("to.sqlite").path
            let summary = try await CourseStore(path: to, user: "admin").copy(from: a)
            #expect(summary.courses == 4 && summary.records == 2)
            let copy = try await CourseStore(path: to, user: "jisoo")
            await #expect(try Self.view(copy) == Self.view(b))
            let kept = try await copy.record(id: recorded.record.id)
            #expect(kept.courseID == 5 && kept.isCourseDeleted && kept.courseTitle == nil)
            #expect(
                try await copy.read { try await $0.storedDeletedCourses() }
                    == b.read { try await $0.storedDeletedCourses() })
            // A new course in the copy never takes the deleted course's id.
            let next = try await CourseStore(path: to, user: "minji").draw(points: taps(seed: 9), title: "새 코스")
            #expect(next.id == 6)
        }
    }
}
