import Foundation
import RunnectKit
import RunnectPostgres
import RunnectTestSupport
import Testing

@testable import RunnectStore

/// A store of one ``StoreKind`` as a server opens it, and runners of the CLI.
///
/// On SQLite the server is a handle like any other (its primitives need no rights). On
/// PostgreSQL it is a server's role (`runnect db add-user NAME --server`) acting as itself, and
/// each CLI runner a login role with a store of its own (`runnect db add-user`), named after the
/// base name given (made unique on the cluster): compare names with a store's `user`.
struct RunnerFixture: Sendable {
    let kind: StoreKind
    let server: CourseStore
    let runners: [CourseStore]
    let postgres: PostgresStoreDatabase?

    /// A handle acting for runner `name` through the server's store: a sign-up's runner, whose
    /// role (on PostgreSQL) has no login.
    func acting(as name: String) throws -> CourseStore { try server.acting(as: name) }

    /// Runs `sql` through psql as the CLI runner `role` (PostgreSQL only).
    func psql(as role: String, _ sql: String) throws -> PostgresCluster.PsqlResult {
        let database = try #require(postgres).database
        return try database.cluster.psql(sql, database: database.name, role: role, password: "\(role) pw")
    }

    /// Runs `sql` as the superuser (PostgreSQL only).
    @discardableResult
    func adminSQL(_ sql: String) throws -> String {
        let result = try #require(postgres).database.adminSQL(sql)
        try #require(result.status == 0, "\(sql): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Runs `body` with a ``RunnerFixture`` of `kind` and a store for each of `runners`.
func withRunnerStores(
    _ kind: StoreKind, runners names: [String] = ["a", "b"], sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (RunnerFixture) async throws -> Void
) async throws {
    try kind.require(sourceLocation: sourceLocation)
    switch kind {
    case .sqlite:
        try await withTemporaryDatabase { path in
            let server = try await CourseStore(path: path, user: "runnect-server")
            var runners: [CourseStore] = []
            for name in names { runners.append(try await CourseStore(path: path, user: name)) }
            try await body(RunnerFixture(kind: kind, server: server, runners: runners, postgres: nil))
        }
    case .postgres:
        let database = try await PostgresStoreDatabase()
        var runners: [CourseStore] = []
        for name in names { runners.append(try await CourseStore(postgres: try await database.addRunner(name).url)) }
        let server = try await CourseStore(postgres: try await database.addServer("server").url)
        try await body(RunnerFixture(kind: kind, server: server, runners: runners, postgres: database))
    }
}

@Suite("Store: runners, stamps, sign-ins and rankings")
struct CourseStoreRunnerTests {
    @Test("PostgreSQL: the cases of this suite's parameterised tests", .postgresCases)
    func postgresCases() {
        #expect(StoreKind.available.contains(.postgres))
    }

    static let kakao = SignInIdentity(issuer: "kakao", subject: "4017", provider: "KAKAO", email: "runner@example.com")

    @Test(
        "a sign-in makes runner r<id> once and finds them again by identity, never by e-mail",
        arguments: StoreKind.available)
    func signIn(kind: StoreKind) async throws {
        try await withRunnerStores(kind) { fixture in
            let server = fixture.server
            let (first, isNew) = try await server.signIn(Self.kakao)
            #expect(isNew)
            #expect(first.name == "r\(first.id)" && first.nickname == nil && first.displayName == first.name)
            #expect(first.provider == "KAKAO" && first.email == "runner@example.com")
            #expect(first.stamps.isEmpty && !first.isWithdrawn)

            // The same identity: the same runner, its e-mail as given now (kept when none is).
            var later = Self.kakao
            later.email = "moved@example.com"
            let (again, againNew) = try await server.signIn(later)
            #expect(!againNew && again.id == first.id && again.email == "moved@example.com")
            later.email = nil
            #expect(try await server.signIn(later).runner.email == "moved@example.com")

            // The same e-mail from another account, or the same subject of another issuer: others.
            let apple = SignInIdentity(
                issuer: "https://appleid.apple.com", subject: "001234.abcd", provider: "APPLE",
                email: "moved@example.com")
            let (other, otherNew) = try await server.signIn(apple)
            #expect(otherNew && other.id != first.id && other.name == "r\(other.id)" && other.provider == "APPLE")
            let google = SignInIdentity(
                issuer: "https://accounts.google.com", subject: "4017", provider: "GOOGLE", email: nil)
            let (third, thirdNew) = try await server.signIn(google)
            #expect(thirdNew && ![first.id, other.id].contains(third.id) && third.email == nil)
            #expect(
                try await server.runners(ids: [first.id, other.id, third.id, 999]).keys.sorted()
                    == [first.id, other.id, third.id].sorted())

            // The runner acts under their name: what they draw is theirs.
            let signedIn = try fixture.acting(as: first.name)
            let course = try await signedIn.draw(points: taps(seed: 1), title: "첫 코스")
            #expect(course.owner == first.name)
            #expect(try await server.runner(id: first.id).stamps == ["c1"])
            await #expect(throws: StoreError.runnerNotFound(999)) { try await server.runner(id: 999) }

            if kind == .postgres {
                // A role of that name: a runner the server may act as, without a login.
                let role = try fixture.adminSQL(
                    """
                    SELECT r.rolcanlogin, pg_has_role('runnect_server', r.oid, 'MEMBER'),
                           EXISTS (SELECT 1 FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid
                                   WHERE m.member = r.oid AND g.rolname = 'runnect_runner')
                    FROM pg_roles r WHERE r.rolname = '\(first.name)'
                    """)
                #expect(role == "f|t|t")
            }
        }
    }

    @Test("a sign-up's name skips an id whose name a runner or a role has", arguments: StoreKind.available)
    func signUpSkipsTakenNames(kind: StoreKind) async throws {
        try await withRunnerStores(kind, runners: []) { fixture in
            let server = fixture.server
            let first = try await server.signIn(Self.kakao).runner
            let taken = "r\(first.id + 1)"
            switch kind {
            case .sqlite:
                _ = try await server.acting(as: taken).draw(points: taps(seed: 1), title: "a CLI runner's")
            case .postgres:
                // Roles are the cluster's: another test's sign-up may have made it first.
                try fixture.adminSQL(
                    "DO $$ BEGIN CREATE ROLE \(taken); EXCEPTION WHEN duplicate_object THEN NULL; END $$")
            }
            var next = Self.kakao
            next.subject = "4018"
            let second = try await server.signIn(next).runner
            #expect(second.id > first.id + 1 && second.name == "r\(second.id)")
            if kind == .sqlite {
                let cli = try #require(try await server.runners(named: [taken])[taken])
                #expect(second.id == cli.id + 1 && cli.provider == "CLI")
            }
        }
    }

    @Test("runner(named:) makes the runner row of a CLI name once", arguments: StoreKind.available)
    func runnerNamed(kind: StoreKind) async throws {
        try await withRunnerStores(kind, runners: ["a"]) { fixture in
            let (server, a) = (fixture.server, fixture.runners[0])
            let made = try await server.runner(named: a.user)
            #expect(made.name == a.user && made.provider == "CLI" && made.stamps.isEmpty && made.email == nil)
            #expect(try await server.runner(named: a.user).id == made.id)
            _ = try await a.draw(points: taps(seed: 1), title: "first")
            #expect(try await server.runner(named: a.user) == (try await server.runner(id: made.id)))
            #expect(try await server.runner(id: made.id).stamps == ["c1"])
            await #expect(throws: StoreError.invalidUser(" ")) { try await server.runner(named: " ") }

            if kind == .postgres {
                // A name no role has becomes a runner's role; a role that is no runner never does.
                let fresh = PostgresCluster.uniqueRoleName("fresh")
                #expect(try await server.runner(named: fresh).name == fresh)
                #expect(try fixture.adminSQL("SELECT rolcanlogin FROM pg_roles WHERE rolname = '\(fresh)'") == "f")
                // (Not the superuser: another test may have made it a runner, as `db copy
                // --existing-roles` does, and roles are the cluster's.)
                let lurker = PostgresCluster.uniqueRoleName("lurker")
                try fixture.adminSQL("CREATE ROLE \(lurker) LOGIN")
                for stranger in [server.user, lurker] {
                    do {
                        _ = try await server.runner(named: stranger)
                        Issue.record("\(stranger) was made a runner")
                    } catch let error as StoreError {
                        #expect("\(error)".contains("is not a runner"), "\(error)")
                    }
                }
                #expect(try await server.runners(named: [server.user, lurker]).isEmpty)
                await #expect(throws: PostgresAdministrationError.self) { try await server.runner(named: "pg_x") }
            }
        }
    }

    @Test("a nickname is one runner's: taken, kept, given up", arguments: StoreKind.available)
    func nicknames(kind: StoreKind) async throws {
        try await withRunnerStores(kind, runners: ["a", "b", "c"]) { fixture in
            let (a, b, c) = (fixture.runners[0], fixture.runners[1], fixture.runners[2])
            let named = try await a.setNickname("  달리는 곰 ")
            #expect(named.name == a.user && named.nickname == "달리는 곰" && named.displayName == "달리는 곰")
            #expect(named.modifiedAt >= named.createdAt)
            await #expect(throws: StoreError.nicknameTaken("달리는 곰")) { try await b.setNickname("달리는 곰") }
            // Keeping one's own is no conflict; another runner sees it.
            #expect(try await a.setNickname("달리는 곰").nickname == "달리는 곰")
            #expect(try await b.runners(named: [a.user])[a.user]?.displayName == "달리는 곰")
            // A runner without a nickname goes by their name: nobody else may take it.
            _ = try await fixture.server.runner(named: c.user)
            await #expect(throws: StoreError.nicknameTaken(c.user)) { try await b.setNickname(c.user) }
            #expect(try await c.setNickname(c.user).nickname == c.user)
            await #expect(throws: StoreError.invalidNickname("")) { try await b.setNickname("   ") }
            await #expect(throws: StoreError.invalidNickname(String(repeating: "가", count: 15))) {
                try await b.setNickname(String(repeating: "가", count: 15))
            }
            // Given up for another, it is free.
            _ = try await a.setNickname("새벽 러너")
            #expect(try await b.setNickname("달리는 곰").nickname == "달리는 곰")
            let all = try await fixture.server.runners(named: [a.user, b.user, c.user])
            #expect(all.mapValues(\.nickname) == [a.user: "새벽 러너", b.user: "달리는 곰", c.user: c.user])
        }
    }

    @Test(
        "stamps follow what a runner did: 10 courses drawn, a scrap, an upload, a record",
        arguments: StoreKind.available)
    func stamps(kind: StoreKind) async throws {
        try await withRunnerStores(kind, runners: ["a", "b", "c"]) { fixture in
            let (a, b, c) = (fixture.runners[0], fixture.runners[1], fixture.runners[2])
            func runner(_ store: CourseStore) async throws -> Runner {
                try #require(try await fixture.server.runners(named: [store.user])[store.user])
            }
            var drawn: [Course] = []
            for seed in 0..<9 { drawn.append(try await a.draw(points: taps(seed: seed), title: "코스 \(seed)")) }
            #expect(try await runner(a).stamps == ["c1"])
            drawn.append(try await a.draw(points: taps(seed: 9), title: "코스 9"))
            #expect(try await runner(a).stamps == ["c1", "c2"])
            let other = try await b.draw(points: taps(seed: 20), title: "b의 코스")
            _ = try await b.upload(id: other.id, title: "b의 코스", description: "공유")
            _ = try await a.scrap(id: other.id)
            _ = try await a.upload(id: drawn[0].id, title: "코스 0", description: "공유")
            _ = try await a.reportRun(
                course: other.id, title: "첫 기록", seconds: 600, paceSeconds: 300, fromSharedPage: false)
            let earned = try await runner(a)
            #expect(earned.stamps == ["c1", "c2", "s1", "u1", "r1"])
            #expect(earned.level == 2 && earned.levelPercent == 25 && earned.latestStamp == "r1")
            // What is undone keeps its stamp; doing it again counts on.
            _ = try await a.unscrap(id: other.id)
            _ = try await a.scrap(id: other.id)
            _ = try await a.unupload(id: drawn[0].id)
            try await a.delete(ids: [drawn[1].id])
            #expect(try await runner(a).stamps == earned.stamps)

            let shared = try await runner(b)
            #expect(shared.stamps == ["c1", "u1"] && shared.level == 1 && shared.levelPercent == 50)
            #expect(shared.latestStamp == "u1")
            let idle = try await fixture.server.runner(named: c.user)
            #expect(idle.stamps.isEmpty && idle.level == 1 && idle.levelPercent == 0 && idle.latestStamp == "CSPR0")
        }
    }

    @Test("a runner has one valid refresh token's hash at a time", arguments: StoreKind.available)
    func refreshTokens(kind: StoreKind) async throws {
        try await withRunnerStores(kind, runners: ["a"]) { fixture in
            let server = fixture.server
            let signedUp = try await server.signIn(Self.kakao).runner
            let cli = try await server.runner(named: fixture.runners[0].user)
            let (first, second) = (String(repeating: "a1", count: 32), String(repeating: "b2", count: 32))
            for id in [signedUp.id, cli.id] {
                #expect(try await server.refreshTokenHash(runner: id) == nil)
                try await server.setRefreshTokenHash(runner: id, first)
                #expect(try await server.refreshTokenHash(runner: id) == first)
                try await server.setRefreshTokenHash(runner: id, second)
                #expect(try await server.refreshTokenHash(runner: id) == second)
            }
            try await server.setRefreshTokenHash(runner: signedUp.id, nil)
            #expect(try await server.refreshTokenHash(runner: signedUp.id) == nil)
            #expect(try await server.refreshTokenHash(runner: cli.id) == second)
        }
    }

    @Test(
        "a reported run is stored with its marks and ranked beside a measured record, fastest first",
        arguments: StoreKind.available)
    func reportedRunsRank(kind: StoreKind) async throws {
        try await withRunnerStores(kind, runners: ["a", "b"]) { fixture in
            let (a, b, server) = (fixture.runners[0], fixture.runners[1], fixture.server)
            let night = try await a.importFile(path: SampleTracks.path("banpo_hangang_night_run.gpx"))
            _ = try await a.upload(id: night.id, title: "반포 야간 달리기", description: "Night run")
            let run = try CourseDraft(
                source: CourseSource(path: SampleTracks.path("banpo_hangang_night_run.gpx")), matching: RunMatching())
            guard case .success(.record(let recorded)) = try await b.store([run]).first else {
                Issue.record("the run was not recorded")
                return
            }
            let measured = recorded.record
            #expect(measured.courseID == night.id)

            let fast = measured.courseTimeSeconds * 0.9
            let reported = try await a.reportRun(
                course: night.id, title: "  앱 기록 ", seconds: fast, paceSeconds: 321.5, fromSharedPage: true)
            #expect(reported.owner == a.user && reported.title == "앱 기록" && reported.sourceFormat == "app")
            #expect(reported.courseID == night.id && reported.courseTimeSeconds == fast)
            #expect(reported.courseDistanceMeters == night.stats.distanceMeters && reported.matchCoverage == 0)
            // Never merged with another: a second report is a record of its own.
            let slower = try await a.reportRun(
                course: night.id, title: "느린 기록", seconds: fast * 2, paceSeconds: 643, fromSharedPage: false)
            #expect(slower.id != reported.id)
            #expect(try await a.records(course: night.id).map(\.id).sorted() == [reported.id, slower.id].sorted())
            #expect(
                try await a.recordMarks(ids: [reported.id, slower.id, measured.id]) == [
                    reported.id: RecordMarks(isReported: true, reportedPaceSeconds: 321.5, isFromSharedPage: true),
                    slower.id: RecordMarks(isReported: true, reportedPaceSeconds: 643, isFromSharedPage: false),
                ])
            #expect(
                try await b.recordMarks(ids: [measured.id, reported.id]) == [
                    measured.id: RecordMarks(isReported: false, reportedPaceSeconds: nil, isFromSharedPage: false)
                ])

            let ranking = try await server.ranking(course: night.id)
            #expect(ranking.map(\.rank) == [1, 2])
            #expect(ranking.map(\.recordID) == [reported.id, measured.id])
            #expect(ranking.map(\.runner.name) == [a.user, b.user])
            #expect(ranking.map(\.isMeasured) == [false, true])
            #expect(ranking.map(\.seconds) == [fast, measured.courseTimeSeconds])
            let pace = try #require(
                Pace.secondsPerKilometer(
                    seconds: measured.courseTimeSeconds, meters: measured.courseDistanceMeters))
            #expect(ranking.map(\.paceSecondsPerKilometer) == [321.5, pace])
            #expect(try await server.ranking(course: night.id + 100).isEmpty)

            // A reported run of a course the runner cannot see is refused.
            let hidden = try await b.draw(points: taps(seed: 3), title: "b's private")
            await #expect(throws: StoreError.notFound(hidden.id)) {
                try await a.reportRun(
                    course: hidden.id, title: "x", seconds: 60, paceSeconds: 300, fromSharedPage: false)
            }
        }
    }

    @Test(
        "a course's map image, kept with the course its owner deleted, and its preview's path",
        arguments: StoreKind.available)
    func imagesAndPreviews(kind: StoreKind) async throws {
        try await withRunnerStores(kind, runners: ["a", "b", "c"]) { fixture in
            let (a, b, server) = (fixture.runners[0], fixture.runners[1], fixture.server)
            let course = try await a.draw(points: taps(seed: 1), title: "지도 있는 코스")
            let hidden = try await a.draw(points: taps(seed: 2), title: "비공개")
            try await a.setImage(course: course.id, image: "course-1.png")
            try await a.setImage(course: hidden.id, image: "course-2.png")
            await #expect(throws: StoreError.notFound(course.id)) {
                try await b.setImage(course: course.id, image: "stolen.png")
            }
            let both = [course.id: "course-1.png", hidden.id: "course-2.png"]
            #expect(try await a.images(courses: [course.id, hidden.id, 99]) == both)
            // A runner reads only the images of courses they may read, on both backends.
            #expect(try await b.images(courses: [course.id, hidden.id]) == [:])
            _ = try await a.upload(id: course.id, title: "지도 있는 코스", description: "공유")
            await #expect(throws: StoreError.notOwner(id: course.id, owner: a.user)) {
                try await b.setImage(course: course.id, image: "stolen.png")
            }
            #expect(try await b.images(courses: [course.id, hidden.id]) == [course.id: "course-1.png"])

            // The server draws any course's preview, a private one too.
            for id in [course.id, hidden.id] {
                #expect(try await server.previewActivity(course: id) == (try await a.activity(id: id)))
            }
            #expect(try await server.previewActivity(course: 99) == nil)

            // Deleted with b's record of it, it keeps its image and path for that record.
            let report = try await b.reportRun(
                course: course.id, title: "기록", seconds: 100, paceSeconds: 300, fromSharedPage: true)
            let path = try await a.activity(id: course.id)
            _ = try await a.unupload(id: course.id)
            try await a.delete(ids: [course.id])
            #expect(try await b.record(id: report.id).isCourseDeleted)
            #expect(try await b.images(courses: [course.id]) == [course.id: "course-1.png"])
            #expect(try await a.images(courses: [course.id, hidden.id]) == both)
            #expect(try await server.previewActivity(course: course.id) == path)
            // A runner who holds no record of it reads it no more.
            let c = fixture.runners[2]
            #expect(try await c.images(courses: [course.id, hidden.id]).isEmpty)
        }
    }

    @Test(
        "a withdrawal deletes private courses, records and scraps, keeps shared courses, forgets the sign-in",
        arguments: StoreKind.available)
    func withdrawal(kind: StoreKind) async throws {
        try await withRunnerStores(kind, runners: ["a"]) { fixture in
            let (a, server) = (fixture.runners[0], fixture.server)
            let (runner, _) = try await server.signIn(Self.kakao)
            let store = try fixture.acting(as: runner.name)
            _ = try await store.setNickname("곧 떠남")
            try await server.setRefreshTokenHash(runner: runner.id, String(repeating: "c3", count: 32))
            let hidden = try await store.draw(points: taps(seed: 1), title: "비공개")
            try await store.setImage(course: hidden.id, image: "hidden.png")
            let shared = try await store.draw(points: taps(seed: 2), title: "공유")
            _ = try await store.upload(id: shared.id, title: "공유 코스", description: "남는 코스")
            try await store.setImage(course: shared.id, image: "shared.png")
            let others = try await a.draw(points: taps(seed: 3), title: "a의 코스")
            _ = try await a.upload(id: others.id, title: "a의 코스", description: "공유")
            _ = try await store.scrap(id: others.id)
            _ = try await store.reportRun(
                course: others.id, title: "기록", seconds: 90, paceSeconds: 300, fromSharedPage: false)
            _ = try await store.reportRun(
                course: hidden.id, title: "내 코스 기록", seconds: 90, paceSeconds: 300, fromSharedPage: false)
            #expect(try await server.ranking(course: others.id).count == 1)

            let withdrawal = try await store.withdraw()
            #expect(withdrawal == CourseStore.Withdrawal(runnerID: runner.id, images: ["hidden.png"]))
            let gone = try await server.runner(id: runner.id)
            #expect(gone.isWithdrawn && gone.nickname == nil && gone.email == nil && gone.name == runner.name)
            #expect(try await server.refreshTokenHash(runner: runner.id) == nil)
            #expect(try await store.records().isEmpty)
            #expect(try await store.list(.mine(uploaded: nil)).map(\.id) == [shared.id])
            #expect(try await a.course(id: shared.id).owner == runner.name)
            #expect(try await a.images(courses: [shared.id, hidden.id]) == [shared.id: "shared.png"])
            #expect(try await a.course(id: others.id).scrapCount == 0)
            #expect(try await server.ranking(course: others.id).isEmpty)
            await #expect(throws: StoreError.invalidUser(runner.name)) { try await store.withdraw() }

            // The identity signs in no more: it makes a new runner.
            let (again, isNew) = try await server.signIn(Self.kakao)
            #expect(isNew && again.id != runner.id && !again.isWithdrawn)
            #expect(try await server.runner(id: runner.id).isWithdrawn)
        }
    }

    @Test(
        "runners read everyone's public rows and only their own e-mail; the server reads every e-mail",
        arguments: StoreKind.available)
    func emails(kind: StoreKind) async throws {
        try await withRunnerStores(kind, runners: ["a"]) { fixture in
            let (a, server) = (fixture.runners[0], fixture.server)
            let (first, _) = try await server.signIn(Self.kakao)
            var other = Self.kakao
            other.subject = "9999"
            other.email = "other@example.com"
            let (second, _) = try await server.signIn(other)
            let cli = try await server.runner(named: a.user)
            let ids = [first.id, second.id, cli.id]
            #expect(
                try await server.runners(ids: ids).mapValues(\.email) == [
                    first.id: "runner@example.com", second.id: "other@example.com", cli.id: nil,
                ])
            let own = try await fixture.acting(as: first.name).runners(ids: ids)
            let seenByA = try await a.runners(ids: ids)
            #expect(own.keys.sorted() == ids.sorted() && seenByA.keys.sorted() == ids.sorted())
            switch kind {
            case .sqlite:
                // One file: nothing is hidden from who can read it.
                #expect(seenByA[second.id]?.email == "other@example.com")
            case .postgres:
                #expect(own.mapValues(\.email) == [first.id: "runner@example.com", second.id: nil, cli.id: nil])
                #expect(seenByA.values.allSatisfy { $0.email == nil })
            }
            #expect(own[second.id]?.provider == "KAKAO" && own[second.id]?.name == second.name)
        }
    }

    // MARK: - PostgreSQL's own guards

    @Test(
        "PostgreSQL: another runner's role cannot change a runner's row nor read accounts or identities",
        .postgres)
    func rowLevelSecurity() async throws {
        try await withRunnerStores(.postgres, runners: ["a", "b"]) { fixture in
            let (a, b, server) = (fixture.runners[0], fixture.runners[1], fixture.server)
            _ = try await a.setNickname("에이")
            _ = try await b.setNickname("비")
            let (signedUp, _) = try await server.signIn(Self.kakao)
            let runnerA = try await server.runner(named: a.user)
            let runnerB = try await server.runner(named: b.user)
            try await server.setRefreshTokenHash(runner: runnerA.id, String(repeating: "d4", count: 32))
            let course = try await a.draw(points: taps(seed: 1), title: "a's")

            func refused(_ sql: String, _ message: String = "permission denied") throws {
                let result = try fixture.psql(as: b.user, sql)
                #expect(result.status != 0, "\(sql) was not refused")
                #expect(result.stderr.contains(message), "\(sql): \(result.stderr)")
            }
            func prints(_ sql: String, _ output: String) throws {
                let result = try fixture.psql(as: b.user, sql)
                #expect(result.status == 0, "\(sql): \(result.stderr)")
                #expect(result.stdout.trimmingCharacters(in: .newlines) == output, "\(sql)")
            }
            // Another's row: not changed; one's own counters, stamps and withdrawal: not by hand.
            try prints(
                "UPDATE runner SET nickname = 'stolen', modified_at = now() WHERE name = '\(a.user)'", "UPDATE 0")
            try prints("UPDATE runner SET nickname = 'stolen' WHERE id = \(signedUp.id)", "UPDATE 0")
            try refused("UPDATE runner SET drawn_count = 99 WHERE name = current_user")
            try refused("UPDATE runner SET withdrawn_at = now() WHERE name = current_user")
            try refused("UPDATE runner SET name = 'someone' WHERE name = current_user")
            try refused("INSERT INTO runner (name) VALUES ('fake')")
            try refused("DELETE FROM runner WHERE name = '\(a.user)'")
            try refused("INSERT INTO runner_stamp (runner_id, stamp) VALUES (\(runnerB.id), 'c3')")
            try refused("DELETE FROM runner_stamp")
            // Accounts and identities: none of another's; one's own e-mail only.
            try refused("SELECT refresh_token_sha256 FROM runner_account")
            try refused("SELECT * FROM runner_account")
            try refused("UPDATE runner_account SET email = 'x'")
            try prints("SELECT runner_id FROM runner_account ORDER BY runner_id", "\(runnerB.id)")
            try prints("SELECT count(*) FROM runner_account WHERE runner_id = \(signedUp.id)", "0")
            try refused("SELECT * FROM runner_identity")
            try refused("SELECT count(*) FROM runner_identity")
            // The server's functions are not a runner's.
            try refused("SELECT runnect_create_runner(NULL, 'kakao', 'x', NULL, 'KAKAO', now())")
            try refused("SELECT runnect_set_account(\(runnerA.id), 'x@example.com', 'KAKAO')")
            try refused("SELECT runnect_preview_geometry(\(course.id))")
            try refused("SELECT * FROM runnect_ranking(\(course.id))")
            // Another's course image: not b's to set.
            try prints("UPDATE course SET image = 'x.png' WHERE id = \(course.id)", "UPDATE 0")
            // What every runner reads: the public rows.
            try prints("SELECT nickname FROM runner WHERE name = '\(a.user)'", "에이")
            try prints("SELECT count(*) > 0 FROM runner_stamp WHERE runner_id = \(runnerA.id)", "t")
            // A server's own role: accounts and identities, nothing of courses (it reads them as
            // the runner it acts for); never a runner's row to change by hand.
            func asServer(_ sql: String, refused: Bool) throws {
                let result = try fixture.psql(as: server.user, sql)
                #expect((result.status != 0) == refused, "\(sql): \(result.stderr)")
                if refused { #expect(result.stderr.contains("permission denied"), "\(sql): \(result.stderr)") }
            }
            try asServer("SELECT refresh_token_sha256 FROM runner_account", refused: false)
            try asServer("SELECT * FROM runner_identity", refused: false)
            try asServer("SELECT id, image FROM course", refused: true)
            try asServer("SELECT title FROM course", refused: true)
            try asServer("SELECT geometry FROM deleted_course", refused: true)
            try asServer("SELECT * FROM record", refused: true)
            try asServer("UPDATE runner SET nickname = 'x'", refused: true)
            try asServer("UPDATE runner_account SET refresh_token_sha256 = NULL WHERE false", refused: false)
            // Withdrawing acts on the caller alone.
            try prints("SELECT runnect_withdraw(now())", "")
            #expect(try await server.runner(id: runnerA.id).isWithdrawn == false)
            #expect(try await server.runner(id: runnerB.id).isWithdrawn)
            #expect(try await server.refreshTokenHash(runner: runnerA.id) != nil)
        }
    }

    @Test("PostgreSQL: a CLI runner who withdraws loses their role's login", .postgres)
    func withdrawalTakesTheLogin() async throws {
        try await withRunnerStores(.postgres, runners: ["a"]) { fixture in
            let a = fixture.runners[0]
            _ = try await a.draw(points: taps(seed: 1), title: "a's")
            let withdrawal = try await a.withdraw()
            #expect(try await fixture.server.runner(id: withdrawal.runnerID).isWithdrawn)
            #expect(try fixture.adminSQL("SELECT rolcanlogin FROM pg_roles WHERE rolname = '\(a.user)'") == "f")
            let login = try fixture.psql(as: a.user, "SELECT 1")
            #expect(login.status != 0 && login.stderr.contains("not permitted to log in"), "\(login.stderr)")
        }
    }

    /// Roles are the cluster's: two stores each count their runners from 1 and choose `r<id>`
    /// at the same moment (schema version 20). Under version 18 this failed at once, on a
    /// duplicate key in `pg_authid`.
    @Test(
        "PostgreSQL: two stores of one cluster sign runners up at the same moment, each a role of their own",
        .postgres)
    func signUpsRaceAcrossStores() async throws {
        try await withRunnerStores(.postgres, runners: []) { first in
            try await withRunnerStores(.postgres, runners: []) { second in
                let servers = [first.server, second.server]
                let signUps = 12
                let named = PostgresCluster.uniqueRoleName("both")
                let made = try await withThrowingTaskGroup(of: (Int, Runner).self) { group in
                    for index in 0..<(2 * signUps) {
                        group.addTask {
                            let identity = SignInIdentity(
                                issuer: "kakao", subject: "race-\(index)", provider: "KAKAO", email: nil)
                            return (index % 2, try await servers[index % 2].signIn(identity).runner)
                        }
                    }
                    // One CLI name made by both stores at once: the same role, a runner of each.
                    for store in 0..<2 {
                        group.addTask { (store, try await servers[store].runner(named: named)) }
                    }
                    return try await group.reduce(into: [(Int, Runner)]()) { $0.append($1) }
                }
                let signedUp = made.filter { $0.1.name != named }
                #expect(signedUp.count == 2 * signUps)
                #expect(signedUp.allSatisfy { $0.1.name == "r\($0.1.id)" })
                #expect(Set(signedUp.map(\.1.name)).count == 2 * signUps, "a role name was given twice")
                for (store, server) in servers.enumerated() {
                    let mine = signedUp.filter { $0.0 == store }.map(\.1)
                    let read = try await server.runners(ids: mine.map(\.id))
                    #expect(read.count == signUps && read.values.allSatisfy { $0.provider == "KAKAO" })
                    #expect(try await server.runners(named: [named])[named]?.provider == "CLI")
                }
                let roles = try first.adminSQL(
                    "SELECT count(*) FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member "
                        + "JOIN pg_roles g ON g.oid = m.roleid WHERE g.rolname = 'runnect_runner' AND r.rolname IN ("
                        + (signedUp.map { "'\($0.1.name)'" } + ["'\(named)'"]).joined(separator: ",") + ")")
                #expect(roles == "\(2 * signUps + 1)")
            }
        }
    }

    // MARK: - SQLite's migration

    @Test("SQLite: version 6 makes a runner of every name the store holds, with its stamps")
    func sqliteBackfill() async throws {
        try await withTemporaryDirectory { folder in
            // The schema-1 fixture: minji's 7 courses (2 shared), jisoo's shared one, scraps by
            // jisoo (2) and haneul (1).
            let copy = folder.appendingPathComponent("courses.sqlite")
            try FileManager.default.copyItem(at: CourseStoreMigrationTests.fixture, to: copy)
            let store = try await CourseStore(path: copy.path, user: "minji")
            let runners = try await store.runners(named: ["minji", "jisoo", "haneul", "nobody"])
            #expect(
                runners.mapValues(\.stamps) == ["minji": ["c1", "u1"], "jisoo": ["c1", "s1", "u1"], "haneul": ["s1"]])
            #expect(runners.values.allSatisfy { $0.provider == "CLI" && !$0.isWithdrawn && $0.nickname == nil })
            #expect(Set(runners.values.map(\.id)).count == 3)
            // Counting goes on from there: the tenth course earns c2.
            for seed in 0..<3 { _ = try await store.draw(points: taps(seed: seed), title: "코스 \(seed)") }
            #expect(try await store.runners(named: ["minji"])["minji"]?.stamps == ["c1", "u1", "c2"])
        }
    }
}
