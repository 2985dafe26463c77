import Foundation
import PostgresNIO
import RunnectKit
import RunnectStore
import RunnectTestSupport
import Testing

@testable import RunnectPostgres

/// `CourseStore.copy(from:)` from SQLite into PostgreSQL in many small batches, written four at
/// a time (``PostgresBackend/copyWriters``) without the one-writer-per-runner lock.
@Suite(.postgres) struct PostgresCopyTests {
    /// A SQLite store at `path`: every sample course of two runners (Korean titles, a course
    /// without description or departure, one of two segments), half of them shared, a scrap.
    static func source(_ path: String, owners: [String]) async throws -> CourseStore {
        for (n, owner) in owners.enumerated() {
            let store = try await CourseStore(path: path, user: owner)
            for (index, draft) in try PostgresBackendTests.drafts().enumerated() {
                guard case .success(.course(let course)) = try await store.store([draft]).first else {
                    Issue.record("\(draft.title) was not stored")
                    continue
                }
                if (index + n) % 2 == 0 {
                    _ = try await store.upload(id: course.id, title: course.title, description: "공유 \(index)")
                }
            }
        }
        _ = try await CourseStore(path: path, user: owners[1]).scrap(id: 1)
        return try await CourseStore(path: path, user: owners[0])
    }

    /// Each course's id, owner, hash, title, sharing, dates, scrap count and path length, by id.
    /// A plain keyword, one of initials and a mixed one, each course found as `keyword id`.
    static func searches(_ store: CourseStore, page: Page) async throws -> [String] {
        var found: [String] = []
        for keyword in ["한강", "ㅎㄱ", "한ㄱ"] {
            found += try await store.search(keywords: keyword, scope: .shared, page: page).map { "\(keyword) \($0.id)" }
        }
        return found
    }

    static func courses(_ database: ClusterDatabase) throws -> String {
        try database.adminSQL(
            """
            SELECT id, owner, content_hash, title, description, is_uploaded, created_at, uploaded_at, scrap_count,
                   round(ST_Length(path)), (SELECT count(*) FROM course_piece p WHERE p.course_id = c.id),
                   (SELECT cardinality(tokens) FROM course_search s WHERE s.course_id = c.id)
            FROM course c ORDER BY id
            """
        ).stdout
    }

    @Test func aCopyInBatchesSideBySideKeepsEveryCourseAndAConflictWritesNothingOfItsBatch() async throws {
        let owners = [PostgresCluster.uniqueRoleName("minji"), PostgresCluster.uniqueRoleName("지수")]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-pg-copy-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try await Self.source(folder.appendingPathComponent("from.sqlite").path, owners: owners)
        let count = try await source.summary().courses
        #expect(count == 2 * (try PostgresBackendTests.drafts().count))

        let target = try await PostgresStoreDatabase()
        let admin = try await PostgresBackend(url: try target.database.adminURL)
        #expect(admin.copyWriters == 4)
        var steps: [Int] = []
        let summary = try await CourseStore(backend: admin).copy(from: source, batchSize: 3) { steps.append($0.done) }
        #expect(summary.courses == count && summary.coursesPresent == 0 && summary.scraps == 1)
        #expect(steps == Array(stride(from: 3, to: count, by: 3)) + [count])
        let copied = try Self.courses(target.database)
        #expect(copied.split(separator: "\n").count == count)
        // Each path as its own activity gives it (the draft's path, not decoded again).
        let paths = try target.database.adminSQL(
            "SELECT encode(geometry, 'hex') || ' ' || encode(ST_AsBinary(path::geometry), 'hex') FROM course")
        for line in paths.stdout.split(separator: "\n") {
            let (geometry, path) = (line.split(separator: " ")[0], line.split(separator: " ")[1])
            // Hex digits read in one pass: walking the string from its start for each byte took
            // minutes on a long run's activity (the whole test suite's longest wait).
            let digits = Array(geometry.utf8)
            let bytes = stride(from: 0, to: digits.count, by: 2).map { offset in
                UInt8(String(decoding: digits[offset..<offset + 2], as: UTF8.self), radix: 16)!
            }
            #expect(try PostgresTransaction.pathWKB(Data(bytes))?.hexString == String(path))
        }
        #expect(paths.stdout.split(separator: "\n").count == count)
        // Into an empty store, the pieces' box index is set aside and built after the courses.
        let index = "SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('course_piece_box')"
        #expect(try target.database.adminSQL(index).stdout.trimmed == "t")
        // As each runner sees it: the same courses as on SQLite, in the same order.
        for owner in owners {
            var url = try target.database.adminURL  // over the trusted socket
            url.user = owner
            let mine = try await CourseStore(postgres: url)
            let there = try await CourseStore(path: folder.appendingPathComponent("from.sqlite").path, user: owner)
            let page = Page(limit: 100)
            func lines(_ store: CourseStore) async throws -> [String] {
                try await store.list(.mine(uploaded: nil), page: page).map {
                    "\($0.id) \($0.owner) \($0.title) \($0.isUploaded) \($0.scrapCount) \(($0.createdAt.timeIntervalSince1970 * 1000).rounded())"
                }
                    // A plain keyword, one of initials and a mixed one: the copied texts, grams
                    // and initials projections.
                    + (try await Self.searches(store, page: page))
            }
            let a = try await lines(mine)
            let b = try await lines(there)
            // To the millisecond: PostgreSQL's microseconds come back a hair off SQLite's text dates.
            #expect(a == b)
            let keywords = ["한강", "ㅎㄱ", "한ㄱ"]
            #expect(a.count { line in !keywords.contains { line.hasPrefix("\($0) ") } } == count / 2)
            for keyword in keywords { #expect(a.contains { $0.hasPrefix("\(keyword) ") }, "\(keyword) finds") }
        }

        // Again: nothing copied, nothing changed.
        let again = try await CourseStore(backend: admin).copy(from: source, batchSize: 3)
        #expect(again.courses == 0 && again.coursesPresent == count && again.scrapsPresent == 1)
        #expect(try Self.courses(target.database) == copied)

        // Another store holding other content under id 8: its batch (7, 8, 9) writes nothing.
        let other = try await PostgresStoreDatabase()
        let otherAdmin = try await PostgresBackend(url: try other.database.adminURL)
        try await otherAdmin.ensureUsers(owners)
        let draft = try PostgresBackendTests.drafts()[0]
        let stranger = try CourseDraft(
            copying: StoredCourse(
                id: 8, owner: owners[1], title: "남의 코스", description: nil, departure: nil,
                sourceFormat: draft.record.sourceFormat, contentHash: String(repeating: "e", count: 64),
                createdAt: Date(), isUploaded: false,
                uploadedAt: nil, statsJSON: draft.statsJSON, geometry: draft.record.geometry))
        #expect(try await otherAdmin.write { try await $0.insertCopiedCourses([stranger]) } == nil)
        await #expect {
            try await CourseStore(backend: otherAdmin).copy(from: source, batchSize: 3)
        } throws: { error in
            guard case StoreError.copyConflict(kind: "course", id: 8, _) = error else { return false }
            return true
        }
        let ids = try other.database.adminSQL("SELECT id, title FROM course WHERE id BETWEEN 7 AND 9").stdout
        #expect(ids == "8|남의 코스\n")
    }

    /// The box index is dropped at a copy's start and built at its end under `runnect db init`'s
    /// lock, which builds it too: each waits while an initialisation holds the lock (two builds
    /// of one name at once fail one of them).
    /// A course its owner deleted under another runner's record (SQLite's `deleted_course`) is
    /// copied before that record; the record's runner reads it through row-level security, and no
    /// new course takes its id.
    @Test func aCourseDeletedUnderAnotherRunnersRecordIsCopiedBeforeTheRecord() async throws {
        let target = try await PostgresStoreDatabase()
        let (owner, _) = try await target.addRunner("minji")
        let (runner, runnerURL) = try await target.addRunner("jisoo")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-pg-copy-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("from.sqlite").path
        let gpx = SampleTracks.path("gyeongui_line_forest_gpx10.gpx")
        let a = try await CourseStore(path: path, user: owner)
        let course = try await a.importFile(path: gpx, departure: try Departure(address: "서울 마포구 연남동"))
        _ = try await a.upload(id: course.id, title: "경의선 숲길", description: "숲길")
        let run = try CourseDraft(source: CourseSource(path: gpx), matching: RunMatching())
        guard case .success(.record(let recorded)) = try await CourseStore(path: path, user: runner).store([run]).first
        else {
            Issue.record("the run was not recorded")
            return
        }
        try await a.delete(ids: [course.id])

        let admin = await CourseStore(backend: try PostgresBackend(url: try target.database.adminURL))
        let summary = try await admin.copy(from: a)
        #expect(summary.courses == 0 && summary.records == 1)
        let kept = try target.database.adminSQL(
            "SELECT id, owner, departure_town, round(distance_m) FROM deleted_course"
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(kept == "\(course.id)|\(owner)|연남동|\(Int(course.stats.distanceMeters.rounded()))")
        let seen = try await CourseStore(postgres: runnerURL).record(id: recorded.record.id)
        #expect(seen.courseID == course.id && seen.isCourseDeleted && seen.courseTitle == nil)
        let next = try await admin.draw(
            points: [
                Coordinate(latitude: 37.5, longitude: 127.0), Coordinate(latitude: 37.51, longitude: 127.01),
            ], title: "새 코스")
        #expect(next.id > course.id)
    }

    /// A reported run (the app's, no track) keeps its marks, which PostgreSQL's checks need; each
    /// owner's runner earns the stamps the rows copied earn on SQLite (uploads of courses copied
    /// shared counted), and the counters are what the rows hold.
    @Test func aCopyKeepsReportedRunsAndCountsEachRunnersStamps() async throws {
        let owners = [PostgresCluster.uniqueRoleName("minji"), PostgresCluster.uniqueRoleName("jisoo")]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-pg-copy-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("from.sqlite").path
        let source = try await Self.source(path, owners: owners)
        let jisoo = try await CourseStore(path: path, user: owners[1])
        let reported = try await jisoo.reportRun(
            course: 1, title: "앱 기록", seconds: 321, paceSeconds: 299.5, fromSharedPage: true)

        let target = try await PostgresStoreDatabase()
        let admin = try await PostgresBackend(url: try target.database.adminURL)
        let summary = try await CourseStore(backend: admin).copy(from: source, batchSize: 3)
        #expect(summary.records == 1)
        let marks = try target.database.adminSQL(
            "SELECT id, source_format, reported, reported_pace_s, public_course FROM record")
        #expect(marks.stdout.trimmed == "\(reported.id)|app|t|299.5|t")
        var url = try target.database.adminURL
        url.user = owners[1]
        #expect(
            try await CourseStore(postgres: url).recordMarks(ids: [reported.id]) == [
                reported.id: RecordMarks(isReported: true, reportedPaceSeconds: 299.5, isFromSharedPage: true)
            ])

        let before = try await source.runners(named: owners)
        let after = try await CourseStore(backend: admin).runners(named: owners)
        #expect(Set(after.keys) == Set(owners))
        for owner in owners {
            #expect(Set(after[owner]?.stamps ?? []) == Set(before[owner]?.stamps ?? []), "\(owner)")
        }
        let counters = try target.database.adminSQL(
            """
            SELECT bool_and(drawn_count = (SELECT count(*) FROM course c WHERE c.owner = n.name)
                AND upload_count = (SELECT count(*) FROM course c WHERE c.owner = n.name AND c.is_uploaded)
                AND scrap_count = (SELECT count(*) FROM scrap x WHERE x."user" = n.name)
                AND run_count = (SELECT count(*) FROM record r WHERE r.owner = n.name))
            FROM runner n
            """)
        #expect(counters.stdout.trimmed == "t")
    }

    @Test func theCopysBoxIndexWaitsForAnInitialisation() async throws {
        let target = try await PostgresStoreDatabase()
        let url = try target.database.adminURL
        let admin = try await PostgresBackend(url: url)
        for step in ["begin", "end"] {
            let work = try await PostgresSession.with(url) { session in
                try await session.transaction { session in
                    try await session.query(PostgresQuery(unsafeSQL: PostgresBackend.schemaLock))
                    // Begin: true, the store is empty; end: true once built.
                    let work = Task.detached {
                        guard step == "end" else { return try await admin.copyCoursesBegin() }
                        try await admin.copyCoursesEnded()
                        return true
                    }
                    var waiting = false
                    for _ in 0..<100 where !waiting {
                        try await Task.sleep(for: .milliseconds(100))
                        waiting =
                            try target.database.adminSQL(
                                "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'advisory' "
                                    + "AND query LIKE 'SELECT pg_advisory_xact_lock(\(PostgresSchema.lockKey))'"
                            ).stdout.trimmed == "1"
                    }
                    #expect(waiting, "the copy's \(step) waits for the lock")
                    return work
                }
            }
            #expect(try await work.value)
        }
        let index = "SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('course_piece_box')"
        #expect(try target.database.adminSQL(index).stdout.trimmed == "t")
    }
}
