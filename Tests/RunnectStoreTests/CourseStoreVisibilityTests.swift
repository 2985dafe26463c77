import Foundation
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

/// One rule of who reads a course on both backends: its owner, and everyone once it is shared.
/// A course a runner cannot read is not found, not named, and never kept from its owner by
/// another runner's record of it.
@Suite("Store: who sees a course")
struct CourseStoreVisibilityTests {
    @Test("PostgreSQL: the cases of this suite's parameterised tests", .postgresCases)
    func postgresCases() {
        #expect(StoreKind.available.contains(.postgres))
    }

    @Test(
        "another runner's private course is not found: show, export, records, search and the index",
        arguments: StoreKind.available)
    func othersPrivateCourseIsNotFound(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b"]) { fixture in
            let (a, b) = (fixture.stores[0], fixture.stores[1])
            let course = try await a.draw(points: taps(seed: 1), title: "moonlight private")
            let notFound = StoreError.notFound(course.id)
            await #expect(throws: notFound) { try await b.course(id: course.id) }
            await #expect(throws: notFound) { try await b.activity(id: course.id) }
            await #expect(throws: notFound) { try await b.records(course: course.id) }
            await #expect(throws: notFound) { try await b.recordFigures(course: course.id) }
            await #expect(throws: notFound) { try await b.rename(id: course.id, title: "mine now") }
            await #expect(try b.search(keywords: "moonlight", scope: .all).isEmpty)
            await #expect(try b.readCourses(in: .all) { courses, _ in courses.map(\.id) }.isEmpty)
            // Its owner reads it as ever.
            await #expect(try a.course(id: course.id).title == "moonlight private")
            await #expect(try a.search(keywords: "moonlight", scope: .all).map(\.id) == [course.id])
            // Shared, everyone does.
            _ = try await a.upload(id: course.id, title: "moonlight shared", description: "공유")
            await #expect(try b.course(id: course.id).title == "moonlight shared")
            await #expect(try b.search(keywords: "moonlight", scope: .all).map(\.id) == [course.id])
        }
    }

    @Test(
        "a run is matched only to courses its runner may see: another's private course is no candidate",
        arguments: StoreKind.available)
    func othersPrivateCourseIsNoCandidate(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b"]) { fixture in
            let (a, b) = (fixture.stores[0], fixture.stores[1])
            let night = try await a.importFile(path: SampleTracks.path("banpo_hangang_night_run.gpx"))
            let source = try CourseSource(path: SampleTracks.path("banpo_hangang_night_run.gpx"))
            func run(_ hash: String) throws -> CourseDraft {
                try CourseDraft(activity: source.activity, contentHash: hash, matching: RunMatching())
            }
            // a's course follows the run exactly, and is private: b's run makes a course of its own.
            #expect(
                try await a.matchCandidates(for: run(String(repeating: "a", count: 64))).reached.map(\.id) == [night.id]
            )
            #expect(try await b.matchCandidates(for: run(String(repeating: "b", count: 64))).reached.isEmpty)
            guard case .success(.record(let alone)) = try await b.store([run(String(repeating: "b", count: 64))]).first
            else { throw StoreError.database("the run was not recorded") }
            #expect(alone.isNewCourse && alone.course.id != night.id)
            // Shared, it is a candidate of b's next run, beside the course b's first run made.
            _ = try await a.upload(id: night.id, title: "반포 야간 달리기", description: "Night run")
            let reached = try await b.matchCandidates(for: run(String(repeating: "c", count: 64))).reached.map(\.id)
            #expect(Set(reached) == [night.id, alone.course.id])
        }
    }

    /// Runner a's night course, shared, and runner b's record of a run of it.
    private static func sharedCourseWithOthersRecord(_ a: CourseStore, _ b: CourseStore) async throws -> (
        course: Course, record: RunRecord
    ) {
        let night = try await a.importFile(
            path: SampleTracks.path("banpo_hangang_night_run.gpx"),
            departure: try Departure(address: "서울 서초구 반포동 신반포로11길 40"))
        _ = try await a.upload(id: night.id, title: "반포 야간 달리기", description: "Night run")
        let run = try CourseDraft(
            source: CourseSource(path: SampleTracks.path("banpo_hangang_night_run.gpx")), matching: RunMatching())
        guard case .success(.record(let recorded)) = try await b.store([run]).first else {
            throw StoreError.database("the run was not recorded")
        }
        #expect(recorded.course.id == night.id)
        return (night, recorded.record)
    }

    @Test(
        "a record of a course made private since does not name it, even once renamed",
        arguments: StoreKind.available)
    func recordsDoNotNameHiddenCourses(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b"]) { fixture in
            let (a, b) = (fixture.stores[0], fixture.stores[1])
            let (course, record) = try await Self.sharedCourseWithOthersRecord(a, b)
            await #expect(try b.record(id: record.id).courseTitle == "반포 야간 달리기")
            _ = try await a.unupload(id: course.id)
            _ = try await a.rename(id: course.id, title: "secret new title")
            for seen in await [try await b.record(id: record.id)] + (try b.records()) {
                #expect(seen.courseID == course.id)
                #expect(seen.courseTitle == nil)
                #expect(!seen.isCourseDeleted)
            }
            // Its owner's own records still name it.
            await #expect(try a.course(id: course.id).title == "secret new title")
        }
    }

    @Test(
        "the owner deletes a course others ran: it leaves every list and search, their records keep what they show",
        arguments: StoreKind.available)
    func ownerDeletesCourseWithOthersRecords(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b"]) { fixture in
            let (a, b) = (fixture.stores[0], fixture.stores[1])
            let (course, record) = try await Self.sharedCourseWithOthersRecord(a, b)
            _ = try await b.scrap(id: course.id)
            await #expect(try a.recordFigures(course: course.id).count == 1)
            // Private or shared, it is the owner's to delete.
            _ = try await a.unupload(id: course.id)
            try await a.delete(ids: [course.id])

            for store in [a, b] {
                await #expect(throws: StoreError.notFound(course.id)) { try await store.course(id: course.id) }
                await #expect(throws: StoreError.notFound(course.id)) { try await store.activity(id: course.id) }
                await #expect(try store.list(.mine(uploaded: nil)).isEmpty)
                await #expect(try store.list(.shared).isEmpty)
                await #expect(try store.search(keywords: "반포", scope: .all).isEmpty)
            }
            #expect(try fixture.rowCount("course") == 0)
            let kept = try await b.record(id: record.id)
            #expect(kept.courseID == course.id && kept.isCourseDeleted && kept.courseTitle == nil)
            #expect(kept.courseDistanceMeters == record.courseDistanceMeters)
            #expect(kept.courseTimeSeconds == record.courseTimeSeconds)
            await #expect(try b.records().map(\.id) == [record.id])

            // What the records show of it is kept: its length, departure and path, not its title.
            let deleted = try await a.read { try await $0.storedDeletedCourses() }
            #expect(deleted.map(\.id) == [course.id])
            #expect(deleted.first?.departure?.address == "서울 서초구 반포동 신반포로11길 40")
            #expect(deleted.first?.distanceMeters == course.stats.distanceMeters)
            let path = try deleted.first.map { try ActivityCodec.decode($0.geometry).courseSegments.map(\.count) }
            #expect(path == [course.stats.points])

            // The id is never given to another course.
            let next = try await a.draw(points: taps(seed: 4), title: "다음 코스")
            #expect(next.id > course.id)
            await #expect(try b.record(id: record.id).isCourseDeleted)
        }
    }

    @Test("a course with the owner's own records is deleted with them only when asked", arguments: StoreKind.available)
    func ownRecordsNeedConsent(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a"]) { fixture in
            let a = fixture.stores[0]
            let night = try await a.importFile(path: SampleTracks.path("banpo_hangang_night_run.gpx"))
            let run = try CourseDraft(
                source: CourseSource(path: SampleTracks.path("banpo_hangang_night_run.gpx")), matching: RunMatching())
            _ = try await a.store([run])
            await #expect(throws: StoreError.courseHasRecords(id: night.id, count: 1)) {
                try await a.delete(ids: [night.id])
            }
            try await a.delete(ids: [night.id], withRecords: true)
            await #expect(try a.records().isEmpty)
            #expect(try fixture.rowCount("deleted_course") == 0)
        }
    }

    @Test(
        "a stored path with a point that is no position, or one point too few, is damage: never a shorter export",
        arguments: StoreKind.available)
    func damagedPathsAreErrors(kind: StoreKind) async throws {
        try await withStores(kind) { fixture in
            let store = fixture.stores[0]
            // A drawn zigzag: taps hundreds of metres apart, each one adding to the length.
            let zigzag = (0..<8).map {
                Coordinate(latitude: 37.50 + Double($0 % 2) * 0.004, longitude: 127.0 + Double($0) * 0.003)
            }
            let course = try await store.draw(points: zigzag, title: "그린 코스")
            let activity = try await store.activity(id: course.id)
            #expect(activity.routes.first?.points.count == 8)
            // Each of these, as a runner's SQL or a damaged file may leave the path.
            var broken: [(String, Activity)] = []
            for (name, latitude, longitude) in [
                ("NaN", Double.nan, Double.nan), ("infinite", Double.infinity, 127.0), ("1e300", 37.5, 1e300),
            ] {
                var changed = activity
                changed.routes[0].points[3].latitude = latitude
                changed.routes[0].points[3].longitude = longitude
                broken.append((name, changed))
            }
            var shorter = activity
            shorter.routes[0].points.remove(at: 3)
            broken.append(("a point dropped", shorter))
            for (name, changed) in broken {
                try fixture.setGeometry(try ActivityCodec.encode(changed), id: course.id)
                await #expect("\(name)") {
                    try await store.activity(id: course.id)
                } throws: { error in
                    guard case StoreError.corruptGeometry(id: course.id, _) = error else { return false }
                    return "\(error)".contains("course #\(course.id)")
                }
                await #expect(throws: StoreError.self, "\(name)") {
                    try await store.readCourses(in: .all) { _, read in try await read(course.id) }
                }
            }
            // The path as stored reads back whole.
            try fixture.setGeometry(try ActivityCodec.encode(activity), id: course.id)
            await #expect(try store.activity(id: course.id) == activity)
        }
    }

    @Test(
        "a course whose stored figures cannot be read is left out of lists, searches and the index, with a warning",
        arguments: StoreKind.available)
    func unreadableCoursesAreSkipped(kind: StoreKind) async throws {
        try await withStores(kind, users: ["a", "b"]) { fixture in
            let (a, b) = (fixture.stores[0], fixture.stores[1])
            var ids: [Int64] = []
            for seed in 1...3 {
                let course = try await a.draw(points: taps(seed: seed), title: "한강 코스 \(seed)")
                _ = try await a.upload(id: course.id, title: course.title, description: "공유")
                ids.append(course.id)
            }
            let heard = Locked<[StoreWarning]>([])
            b.warnings.onWarning { warning in heard.update { $0.append(warning) } }
            for json in ["{}", #"{"points":4,"segments":1,"distance_m":1e308}"#] {
                try fixture.setStats(json, id: ids[1])
                heard.update { $0 = [] }
                await #expect(try b.list(.shared).map(\.id) == [ids[2], ids[0]], "\(json)")
                await #expect(try b.search(keywords: "한강", scope: .shared).map(\.id).sorted() == [ids[0], ids[2]])
                await #expect(try b.readCourses(in: .shared) { courses, _ in courses.map(\.id) } == [ids[2], ids[0]])
                let warnings = heard.value
                #expect(
                    warnings.count == 3
                        && warnings.allSatisfy { warning in
                            guard case .unreadableCourse(id: ids[1], _) = warning else { return false }
                            return warning.description.contains("course #\(ids[1]) cannot be read")
                        }, "\(warnings)")
                // Asked for alone, it is an error that names it.
                await #expect(throws: StoreError.self) { try await b.course(id: ids[1]) }
            }
        }
    }
}
