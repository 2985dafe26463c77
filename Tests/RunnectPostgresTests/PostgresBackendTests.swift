import Foundation
import RunnectKit
import RunnectStore
import RunnectTestSupport
import Testing

@testable import RunnectPostgres

/// The primitives of `StoreTransaction` on PostgreSQL, against the sample courses, and the
/// policies behind them: each test on a database and roles of its own.
@Suite(.postgres) struct PostgresBackendTests {

    /// A draft of each sample course, with Korean text for the search.
    static func drafts() throws -> [CourseDraft] {
        let texts: [(String, String?, Departure?)] = [
            ("반포 한강 야간 러닝", "밤에 달리는 한강", Departure(region: "서울", city: "서초구", town: "반포동")),
            ("청계천 산책", "100% 평지; DROP TABLE course; --", Departure(region: "서울", city: "종로구", town: "관철동")),
            ("경의선 숲길", nil, Departure(region: "서울", city: "마포구", town: "연남동", name: "숲길 입구")),
            ("남산 순환 two segments", "한강이 보이는 언덕", nil),
            ("올림픽공원 route", "a_b [x] *?", Departure(region: "서울", city: "송파구", town: "방이동")),
            ("석촌호수 한 바퀴", "호수", Departure(region: "서울", city: "송파구", town: "잠실동")),
            ("여의도 한강공원", "한강 공원 러닝", Departure(region: "서울", city: "영등포구", town: "여의도동")),
        ]
        return try zip(SampleTracks.files, texts).map { file, text in
            try CourseDraft(
                source: CourseSource(path: SampleTracks.path(file)), title: text.0,
                description: text.1, departure: text.2)
        }
    }

    /// The store's statements are short: JIT compilation (about 6 ms at a million courses) is off
    /// in every session it opens, whatever the server's default.
    @Test func sessionsRunWithoutJIT() async throws {
        let store = try await PostgresStoreDatabase()
        let (_, url) = try await store.addRunner("jisoo")
        let setting = try await PostgresSession.with(url) { session in
            try await session.query("SHOW jit").first?.decode(String.self)
        }
        #expect(setting == "off")
    }

    @Test func opensAsTheRoleConnectedAndRefusesADatabaseWithoutSchema() async throws {
        let store = try await PostgresStoreDatabase()
        let (role, url) = try await store.addRunner("minji")
        let backend = try await PostgresBackend(url: url)
        #expect(backend.user == role)
        #expect(!backend.location.contains("pw"))

        let bare = try ClusterDatabase()
        await #expect {
            try await PostgresBackend(url: try bare.adminURL)
        } throws: { error in
            guard case StoreError.cannotOpen(_, let reason) = error else { return false }
            return reason.contains("runnect db init --db URL")
        }
        // Every version this build knows, and one after them.
        let newer = PostgresSchema.supportedVersion + 1
        let versions =
            PostgresSchema.migrations.map { "(\($0.version), '\($0.name)')" } + ["(\(newer), 'from-the-future')"]
        try bare.adminSQL(
            "CREATE TABLE schema_version (version integer PRIMARY KEY, name text NOT NULL); "
                + "INSERT INTO schema_version VALUES \(versions.joined(separator: ", "))")
        await #expect(throws: StoreError.newerSchema(found: newer, supported: PostgresSchema.supportedVersion)) {
            try await PostgresBackend(url: try bare.adminURL)
        }
    }

    @Test func aCopyBatchInsertsEveryCourseOrStopsAtContentStoredUnderAnotherID() async throws {
        let store = try await PostgresStoreDatabase()
        let admin = try await PostgresBackend(url: try store.database.adminURL)
        let owner = PostgresCluster.uniqueRoleName("copied")
        try await admin.ensureUsers([owner])
        let drafts = try Self.drafts()
        func copied(_ draft: CourseDraft, id: Int64) throws -> CourseDraft {
            try CourseDraft(
                copying: StoredCourse(
                    id: id, owner: owner, title: draft.title, description: draft.record.description,
                    departure: draft.departure,
                    sourceFormat: draft.record.sourceFormat, contentHash: draft.contentHash,
                    createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(id)), isUploaded: true,
                    uploadedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(id)), statsJSON: draft.statsJSON,
                    geometry: draft.record.geometry))
        }
        // More courses than a `VALUES` list once took (250), so that a limit of the kind shows.
        let batch = try (0..<253).map { n in
            try copied(drafts[n % drafts.count], id: Int64(100 + n))
        }.enumerated().map { n, draft in
            var draft = draft
            draft.record.contentHash = String(draft.contentHash.dropLast(8)) + String(format: "%08x", n)
            return draft
        }
        #expect(try await admin.write { try await $0.insertCopiedCourses(batch) } == nil)
        let here = try await admin.read { try await $0.courseIdentities(ids: batch.map { $0.record.id! } + [99]) }
        #expect(here.count == batch.count)
        #expect(here[100] == StoredIdentity(owner: owner, contentHash: batch[0].record.contentHash))
        // Every entry is searchable, as a course inserted one at a time would be.
        let found = try await admin.read {
            try await $0.searchIDs(keywords: drafts[0].title, scope: .shared, sort: .date, limit: 1_000, offset: 0)
        }
        #expect(Set(found).isSuperset(of: Set(batch.filter { $0.title == drafts[0].title }.map { $0.record.id! })))

        // The same content under a new id: the batch stops there, and the transaction is undone.
        var stored = batch[3]
        stored.record.id = 901
        let again = [try copied(drafts[1], id: 900), stored]
        let conflict = try await admin.write { try await $0.insertCopiedCourses(again) }
        #expect(conflict?.index == 1 && conflict?.existingID == 103)
    }

    /// Every column of every course, its search entry and its pieces, by id.
    static let copiedRows = """
        SELECT to_jsonb(c) - 'geometry' - 'path', md5(c.geometry), ST_AsText(c.path), s.owner, s.is_uploaded, s.created_ms, s.title, s.description, s.departure, s.tokens,
               (SELECT string_agg(p.piece || ' ' || ST_AsText(p.path), ';' ORDER BY p.piece)
                FROM course_piece p WHERE p.course_id = c.id)
        FROM course c JOIN course_search s ON s.course_id = c.id ORDER BY c.id
        """

    @Test func aCopyBatchWritesTheRowsOfItsCoursesInsertedOneByOne() async throws {
        let one = try await PostgresStoreDatabase()
        let batched = try await PostgresStoreDatabase()
        let owners = [PostgresCluster.uniqueRoleName("copied"), PostgresCluster.uniqueRoleName("복사")]
        // Korean text, NULL descriptions and departure parts, two segments, shared and private.
        let drafts = try Self.drafts()
        let batch = try (0..<(drafts.count * 37)).map { n in
            let draft = drafts[n % drafts.count]
            let date = Date(timeIntervalSince1970: 1_700_000_000.123 + Double(n) * 61.5)
            return try CourseDraft(
                copying: StoredCourse(
                    id: Int64(10 + 3 * n), owner: owners[n % 2], title: draft.title,
                    description: n % 4 == 0 ? nil : draft.record.description, departure: draft.departure,
                    sourceFormat: draft.record.sourceFormat,
                    contentHash: String(draft.contentHash.dropLast(8)) + String(format: "%08x", n),
                    createdAt: date, isUploaded: n % 3 != 0, uploadedAt: n % 3 != 0 ? date + 3_600 : nil,
                    statsJSON: draft.statsJSON, geometry: draft.record.geometry))
        }
        #expect(batch.contains { (try? ActivityCodec.decode($0.record.geometry).courseSegments.count) ?? 0 > 1 })
        for database in [one, batched] {
            try await PostgresBackend(url: try database.database.adminURL).ensureUsers(owners)
        }
        let admin = try await PostgresBackend(url: try one.database.adminURL)
        _ = try await admin.write { tx in try await batch.asyncMap { try await tx.insertCourse($0) } }
        let copier = try await PostgresBackend(url: try batched.database.adminURL)
        #expect(try await copier.write { try await $0.insertCopiedCourses(batch) } == nil)

        let expected = try one.database.adminSQL(Self.copiedRows).stdout
        let copied = try batched.database.adminSQL(Self.copiedRows).stdout
        let count = "SELECT count(*), count(description), count(departure_region) FROM course"
        let described = batch.filter { $0.record.description != nil }.count
        let departing = batch.filter { $0.departure != nil }.count
        #expect(described < batch.count && departing < batch.count)
        #expect(try one.database.adminSQL(count).stdout == "\(batch.count)|\(described)|\(departing)\n")
        #expect(
            expected.contains("반포 한강 야간 러닝") && expected.contains("MULTILINESTRING((")
                && expected.contains(";1 LINESTRING("))
        #expect(copied == expected)
    }

    @Test func coursesAreStoredAndReadBackWithTheirPathAndStart() async throws {
        let store = try await PostgresStoreDatabase()
        let backend = try await store.backend("alice")
        let drafts = try Self.drafts()
        let courses = try await backend.write { transaction in
            try await drafts.asyncMap { try await transaction.insertCourse($0) }
        }
        #expect(courses.map(\.owner) == Array(repeating: backend.user, count: drafts.count))
        #expect(courses.map(\.contentHash) == drafts.map(\.contentHash))
        #expect(Set(courses.map(\.id)).count == drafts.count)
        try await backend.read { transaction in
            for (course, draft) in zip(courses, drafts) {
                await #expect(try transaction.course(id: course.id) == course)
                #expect(course.title == draft.title && course.stats == draft.stats)
                #expect(course.departure == draft.departure)
                let blob = try await #require(try transaction.courseGeometry(id: course.id))
                #expect(blob == draft.record.geometry)
                // The start index finds the course from a box around its start and finish.
                let bounds = try #require(draft.bounds)
                func box(_ point: Coordinate) -> Bounds {
                    Bounds(
                        minLatitude: point.latitude - 0.001, minLongitude: point.longitude - 0.001,
                        maxLatitude: point.latitude + 0.001, maxLongitude: point.longitude + 0.001)
                }
                // Two overlapping pieces around the start: the course once, from one call.
                let starts = try await transaction.courseStarts(
                    in: [box(bounds.start), box(bounds.start)], finishingIn: box(bounds.finish))
                #expect(starts.filter { $0.id == course.id }.count == 1)
                let start = try #require(starts.first { $0.id == course.id })
                #expect(
                    start
                        == CourseStart(
                            id: course.id, start: bounds.start, finish: bounds.finish, pathMeters: bounds.pathMeters))
                let far = box(Coordinate(latitude: -bounds.start.latitude, longitude: bounds.start.longitude))
                await #expect(try transaction.courseStarts(in: [far], finishingIn: box(bounds.finish)).isEmpty)
                await #expect(try transaction.courseStarts(in: [], finishingIn: box(bounds.finish)).isEmpty)
            }
            let ids = courses.map(\.id)
            await #expect(try transaction.courses(ids: ids.reversed() + [999_999]).map(\.id) == ids.reversed())
            await #expect(
                try transaction.courseIDs(.mine(uploaded: nil), sort: .date, limit: 100, offset: 0) == ids.reversed())
            await #expect(
                try transaction.courseIDs(.mine(uploaded: nil), sort: .date, limit: 2, offset: 1)
                    == Array(ids.reversed()[1...2]))
            let byDistance = courses.sorted { ($0.stats.distanceMeters, $0.id) < ($1.stats.distanceMeters, $1.id) }
            await #expect(
                try transaction.courseIDs(.mine(uploaded: nil), sort: .distance, limit: 100, offset: 0)
                    == byDistance.map(\.id))
            await #expect(try transaction.courses(in: .all, sort: .distance).map(\.id) == byDistance.map(\.id))
            await #expect(try transaction.courseIDs(.shared, sort: .date, limit: 100, offset: 0).isEmpty)
        }
        // The path as PostGIS holds it: the course segments joined.
        let points = try store.database.adminSQL("SELECT count(*) FILTER (WHERE path IS NOT NULL) FROM course")
        #expect(points.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(drafts.count))
    }

    @Test func aDuplicateLeavesTheTransactionUsableAndABatchGoesOn() async throws {
        let store = try await PostgresStoreDatabase()
        let backend = try await store.backend("jisoo")
        let drafts = try Self.drafts()
        let first = try await backend.write { try await $0.insertCourse(drafts[0]) }
        let stored = try await backend.write { transaction -> [Int64] in
            // As CourseStore's batch: each draft in a savepoint; the duplicate is refused before writing.
            var ids: [Int64] = []
            for draft in [drafts[1], drafts[0], drafts[2], drafts[1]] {
                try await transaction.beginSavepoint("course_import")
                do {
                    await ids.append(try transaction.insertCourse(draft).id)
                    try await transaction.releaseSavepoint("course_import")
                } catch let error as StoreError {
                    try await transaction.rollbackSavepoint("course_import")
                    guard case .duplicate(let existing) = error else { throw error }
                    ids.append(-existing)
                }
            }
            // Without a savepoint too: nothing of the duplicate was written, the transaction goes on.
            await #expect(throws: StoreError.duplicate(existingID: first.id)) {
                try await transaction.insertCourse(drafts[0])
            }
            await ids.append(try transaction.insertCourse(drafts[3]).id)
            return ids
        }
        #expect(stored[1] == -first.id && stored[3] == -stored[0])
        let counts = try await backend.read { try await $0.counts() }
        #expect(
            counts
                == StoreCounts(
                    schemaVersion: PostgresSchema.supportedVersion, courses: 4, sharedCourses: 0, owners: 1, scraps: 0))
        // Another runner may store the same content: duplicates are per owner.
        let other = try await store.backend("haneul")
        #expect(try await other.write { try await $0.insertCourse(drafts[0]) }.id != first.id)
    }

    @Test func sharingScrapsAndTheirCountersAcrossRunners() async throws {
        let store = try await PostgresStoreDatabase()
        let alice = try await store.backend("alice")
        let bob = try await store.backend("bob")
        let drafts = try Self.drafts()
        let (shared, secret) = try await alice.write {
            await (try $0.insertCourse(drafts[0]), try $0.insertCourse(drafts[1]))
        }
        try await alice.write { try await $0.share(id: shared.id, title: "공유 코스", description: "같이 달려요", at: Date()) }
        try await bob.write { try await $0.addScrap(course: shared.id, at: Date()) }
        try await bob.read { transaction in
            let seen = try await #require(try transaction.course(id: shared.id))
            #expect(seen.isUploaded && seen.isScrapped && seen.scrapCount == 1 && seen.title == "공유 코스")
            await #expect(try transaction.courseIDs(.scrapped, sort: .date, limit: 10, offset: 0) == [shared.id])
            await #expect(try transaction.courseIDs(.shared, sort: .scrap, limit: 10, offset: 0) == [shared.id])
            await #expect(try transaction.canSee(course: shared.id))
            // Alice's private course does not exist for Bob.
            await #expect(try transaction.course(id: secret.id) == nil)
            // A page's courses (`runnect_courses`) leave it out, and tell Bob's scrap.
            await #expect(try transaction.courses(ids: [secret.id, shared.id]).map(\.id) == [shared.id])
            await #expect(try transaction.courses(ids: [shared.id]).first?.isScrapped == true)
            await #expect(try transaction.courseGeometry(id: secret.id) == nil)
            await #expect(try !transaction.canSee(course: secret.id))
            await #expect(
                try transaction.searchIDs(keywords: "청계천", scope: .all, sort: .relevance, limit: 10, offset: 0).isEmpty)
            await #expect(
                try transaction.counts()
                    == StoreCounts(
                        schemaVersion: PostgresSchema.supportedVersion, courses: 1, sharedCourses: 1, owners: 1,
                        scraps: 1))
        }
        #expect(
            try await alice.read {
                try await $0.searchIDs(keywords: "같이", scope: .shared, sort: .date, limit: 10, offset: 0)
            } == [
                shared.id
            ])
        // Bob's changes to Alice's courses reach no row (the store says notOwner before; the policies stand behind).
        try await bob.write { transaction in
            try await transaction.setTitle(id: shared.id, title: "Bob's")
            try await transaction.unshare(id: shared.id)
            try await transaction.deleteCourses(ids: [shared.id, secret.id])
        }
        #expect(try await alice.read { try await $0.course(id: shared.id) }?.title == "공유 코스")
        #expect(try await alice.read { try await $0.course(id: secret.id) } != nil)
        // Un-sharing takes every runner's scrap with it, and the counter.
        try await alice.write { try await $0.unshare(id: shared.id) }
        #expect(try await alice.read { try await $0.course(id: shared.id) }?.scrapCount == 0)
        #expect(try await bob.read { try await $0.course(id: shared.id) } == nil)
        try await alice.write { try await $0.deleteCourses(ids: [shared.id]) }
        #expect(try await alice.read { try await $0.counts() }.courses == 1)
    }

    /// A one-keyword search in relevance order whose top tier the table's statistics show rare
    /// reads that tier before any walk (`runnect_search_estimate`, schema version 13), with the
    /// same answers as the walks give: when the tier fills the page, and when the estimate,
    /// which counts every entry holding the token, promised more than the runner may read.
    /// The shipped function, postgres-nio's prepared statement and the plain statement give a
    /// page the same courses, in the order asked, under row-level security (what
    /// `runnect-bench pg search --courses-read` times).
    @Test(arguments: PostgresSearchPlans.CoursesRead.allCases)
    func aPagesCoursesReadAlikeEveryWay(read: PostgresSearchPlans.CoursesRead) async throws {
        let store = try await PostgresStoreDatabase()
        let plans = PostgresSearchPlans(coursesRead: read)
        let alice = try await store.backend("alice", plans: plans)
        let bob = try await store.backend("bob", plans: plans)
        let drafts = try Self.drafts()
        let (shared, secret) = try await alice.write {
            await (try $0.insertCourse(drafts[0]), try $0.insertCourse(drafts[1]))
        }
        try await alice.write { try await $0.share(id: shared.id, title: "공유 코스", description: "같이 달려요", at: Date()) }
        try await bob.write { try await $0.addScrap(course: shared.id, at: Date()) }
        for _ in 0..<3 {  // a statement prepared on the connection serves again
            let seen = try await bob.read { try await $0.courses(ids: [secret.id, shared.id, 999_999]) }
            #expect(seen.map(\.id) == [shared.id])
            #expect(seen.first?.isScrapped == true && seen.first?.title == "공유 코스" && seen.first?.scrapCount == 1)
            let own = try await alice.read { try await $0.courses(ids: [shared.id, secret.id]) }
            #expect(own.map(\.id) == [shared.id, secret.id])
            #expect(own.map(\.isScrapped) == [false, false])
            #expect(own.last == (try await alice.read { try await $0.course(id: secret.id) }))
        }
    }

    @Test func aRareTopTierIsReadFirstWithTheSameAnswers() async throws {
        let store = try await PostgresStoreDatabase()
        let (_, url) = try await store.addRunner("dahye")
        let (_, otherURL) = try await store.addRunner("other")
        let mine = try await PostgresBackend(url: url)
        let theirs = try await PostgresBackend(url: otherURL)
        // Neither: 30; `ㅇㄹㅍ` (올림픽) in the title only: 8; in the title and the departure: 12
        // private ones of another runner, then 12 of the runner's own; oldest first (so that
        // a walk of the newest two finds the top tier there, and the tiers after it are read).
        var added = 0
        func add(_ title: String, _ departure: Departure, to backend: PostgresBackend) async throws -> Int64 {
            added += 1
            let points = (0..<4).map {
                TrackPoint(Coordinate(latitude: 37.5 + Double(added) * 0.001, longitude: 127 + Double($0) * 0.001))
            }
            let draft = try CourseDraft(
                activity: Activity(format: .pointsText, routes: [Route(points: points)]),
                contentHash: String(format: "%064x", added), title: title, description: nil, departure: departure)
            return try await backend.write { try await $0.insertCourse(draft) }.id
        }
        let olympic = Departure(region: "서울", city: "송파구", town: "방이동", detail: "올림픽로 424")
        let elsewhere = Departure(region: "서울", city: "마포구", town: "연남동")
        for n in 0..<30 { _ = try await add("한강 러닝 \(n)", elsewhere, to: mine) }
        let titled = try await (0..<8).asyncMap { try await add("올림픽 대로 \($0)", elsewhere, to: mine) }
        for n in 0..<12 { _ = try await add("올림픽공원 산책 \(n)", olympic, to: theirs) }
        let top = try await (0..<12).asyncMap { try await add("올림픽공원 러닝 \($0)", olympic, to: mine) }
        try store.database.adminSQL("ANALYZE course_search")

        let search = PostgresSearch(words: KoreanText.words(in: "ㅇㄹㅍ"))
        let tier = SearchTier(inTitle: 1, inDeparture: 1)
        try await mine.read { transaction in
            let transaction = try #require(transaction as? PostgresTransaction)
            let entries = try await transaction.searchEntries()
            await #expect(try transaction.readsFirst(search, tier: tier, wanted: 5, entries: entries))
            // More than the 24 entries holding the token, or a token the statistics do not know.
            await #expect(try !transaction.readsFirst(search, tier: tier, wanted: 25, entries: entries))
            let unknown = PostgresSearch(words: KoreanText.words(in: "zzz"))
            await #expect(try !transaction.readsFirst(unknown, tier: tier, wanted: 1, entries: entries))
        }
        let walking = await [
            try PostgresBackend(url: url, searchPlans: PostgresSearchPlans(topTierRows: nil)),
            try PostgresBackend(
                url: url, searchPlans: PostgresSearchPlans(walkRows: 2, sortedMatches: 1, firstBatch: 1, growth: 2)),
        ]
        let expected = top.reversed() + titled.reversed()
        for offset in [0, 5, 10, 15] {
            let page = try await mine.read {
                try await $0.searchIDs(keywords: "ㅇㄹㅍ", scope: .all, sort: .relevance, limit: 5, offset: offset)
            }
            #expect(page == Array(expected.dropFirst(offset).prefix(5)), "offset \(offset)")
            for backend in walking {
                #expect(
                    try await backend.read {
                        try await $0.searchIDs(keywords: "ㅇㄹㅍ", scope: .all, sort: .relevance, limit: 5, offset: offset)
                    } == page, "offset \(offset)")
            }
        }
    }

    /// The planner's estimate of a token is asked once while the table's size stays the same:
    /// with the estimate function taken away from runners, a search of a token asked before
    /// still runs (and the same), one of another token fails; once `ANALYZE` has counted a new
    /// course, the first token's is asked again.
    @Test func aTokensEstimateIsAskedOnceWhileTheTableKeepsItsSize() async throws {
        let store = try await PostgresStoreDatabase()
        let (_, url) = try await store.addRunner("estimates")
        let backend = try await PostgresBackend(url: url)
        var added = 0
        @discardableResult func add(_ title: String) async throws -> Int64 {
            added += 1
            let points = (0..<4).map {
                TrackPoint(Coordinate(latitude: 37.5 + Double(added) * 0.001, longitude: 127 + Double($0) * 0.001))
            }
            let draft = try CourseDraft(
                activity: Activity(format: .pointsText, routes: [Route(points: points)]),
                contentHash: String(format: "%064x", added), title: title, description: nil,
                departure: Departure(region: "서울", city: "송파구", town: "방이동", detail: "올림픽로 424"))
            return try await backend.write { try await $0.insertCourse(draft) }.id
        }
        for n in 0..<12 { try await add("올림픽공원 러닝 \(n)") }
        for n in 0..<12 { try await add("한강 러닝 \(n)") }
        try store.database.adminSQL("ANALYZE course_search")
        func search(_ keywords: String) async throws -> [Int64] {
            try await backend.read {
                try await $0.searchIDs(keywords: keywords, scope: .all, sort: .relevance, limit: 5, offset: 0)
            }
        }
        let first = try await search("ㅇㄹㅍ")
        #expect(first.count == 5)
        let revoke = "REVOKE EXECUTE ON FUNCTION runnect_search_estimate(text[], bigint) FROM runnect_runner"
        #expect(try store.database.adminSQL(revoke).status == 0)
        await #expect(try search("ㅇㄹㅍ") == first)
        await #expect(throws: (any Error).self) { try await search("ㅎㄱ") }
        let newest = try await add("올림픽 대로")
        try store.database.adminSQL("ANALYZE course_search")
        await #expect(throws: (any Error).self) { try await search("ㅇㄹㅍ") }
        let grant = "GRANT EXECUTE ON FUNCTION runnect_search_estimate(text[], bigint) TO runnect_runner"
        #expect(try store.database.adminSQL(grant).status == 0)
        await #expect(try search("ㅇㄹㅍ") == [newest] + first.prefix(4))
    }

    /// A relevance search that takes its tiers' pages from a walk gives every page as the reads
    /// that sort each tier's matches from the GIN index: tiers longer than the page (taken from
    /// the walk), shorter (walked on past the window, or read), and empty.
    @Test func aRelevanceWalkGivesThePagesOfTheSortedReads() async throws {
        let store = try await PostgresStoreDatabase()
        let (_, url) = try await store.addRunner("walker")
        let backend = try await PostgresBackend(url: url)
        // 48 courses, every one holding both keywords (in its description), each in the title
        // and the departure by turns: every tier of the two has some, the top ones more than a
        // small page in a walk of 16.
        for n in 0..<48 {
            let points = (0..<4).map {
                TrackPoint(Coordinate(latitude: 37.5 + Double(n) * 0.001, longitude: 127 + Double($0) * 0.001))
            }
            let title = (n % 4 != 3 ? "한강 " : "") + (n % 5 != 4 ? "야경 " : "") + "코스 \(n)"
            let departure = Departure(
                region: "서울", city: "용산구", town: n % 3 != 0 ? "야경동" : "이촌동",
                detail: n % 2 == 0 ? "한강대로 \(n)" : nil)
            let draft = try CourseDraft(
                activity: Activity(format: .pointsText, routes: [Route(points: points)]),
                contentHash: String(format: "%064x", n), title: title, description: "한강 야경 산책", departure: departure)
            _ = try await backend.write { try await $0.insertCourse(draft) }
        }
        // The table's size for the choice of reads (else the count of an empty table's indexes,
        // 0, on which every search sorts its few matches at once).
        try store.database.adminSQL("ANALYZE course_search")
        let walking = try await PostgresBackend(
            url: url, searchPlans: PostgresSearchPlans(walkRows: 16, sortedMatches: 1, firstBatch: 1, growth: 2))
        let sorted = try await PostgresBackend(url: url, searchPlans: PostgresSearchPlans(walkRows: nil))
        for keywords in ["한강 야경", "한강", "야경"] {
            let every = try await sorted.read {
                try await $0.searchIDs(keywords: keywords, scope: .all, sort: .relevance, limit: 100, offset: 0)
            }
            #expect(every.count == 48, "\(keywords)")
            for limit in [3, 7, 20] {
                var pages: [Int64] = []
                for offset in stride(from: 0, to: 48, by: limit) {
                    pages += try await walking.read {
                        try await $0.searchIDs(
                            keywords: keywords, scope: .all, sort: .relevance, limit: limit, offset: offset)
                    }
                }
                #expect(pages == every, "\(keywords), pages of \(limit)")
            }
        }
    }

    @Test func aLostConnectionIsReplaced() async throws {
        let store = try await PostgresStoreDatabase()
        let backend = try await store.backend("restart")
        let drafts = try Self.drafts()
        _ = try await backend.write { try await $0.insertCourse(drafts[0]) }
        try store.database.adminSQL(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '\(backend.user)'")
        #expect(try await backend.read { try await $0.counts() }.courses == 1)
        _ = try await backend.write { try await $0.insertCourse(drafts[1]) }
        #expect(try await backend.read { try await $0.counts() }.courses == 2)
    }

    @Test func concurrentWritersOfTheSameContentNeverFail() async throws {
        let store = try await PostgresStoreDatabase()
        let backend = try await store.backend("many")
        let drafts = try Self.drafts()
        let failures = Locked<[String]>([])
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<6 {
                group.addTask {
                    do {
                        try await backend.write { transaction in
                            // Opposite orders in turn: two writers meeting on the same rows may deadlock.
                            for draft in worker % 2 == 0 ? drafts : drafts.reversed() {
                                try await transaction.beginSavepoint("course_import")
                                do {
                                    _ = try await transaction.insertCourse(draft)
                                    try await transaction.releaseSavepoint("course_import")
                                } catch StoreError.duplicate {
                                    try await transaction.rollbackSavepoint("course_import")
                                }
                            }
                        }
                    } catch {
                        failures.update { $0.append("\(error)") }
                    }
                }
            }
        }
        #expect(failures.value == [])
        #expect(try await backend.read { try await $0.counts() }.courses == drafts.count)
    }
}
