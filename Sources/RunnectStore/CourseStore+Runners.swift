import Foundation
import RunnectKit

extension CourseStore {
    // MARK: - Who runners are

    /// The runner of an app sign-in: the one this identity belongs to, or a new runner (`r<id>`,
    /// on PostgreSQL with a role of that name) when it is the identity's first. The e-mail is
    /// kept for the runner's own page; it never identifies anyone.
    ///
    /// For a server (on PostgreSQL, the server's own role, acting as no runner).
    /// - Returns: The runner, and whether they were made now (the app's sign-up).
    public func signIn(_ identity: SignInIdentity) async throws -> (runner: Runner, isNew: Bool) {
        let now = Date()
        let (id, isNew) = try await write { tx -> (Int64, Bool) in
            if let id = try await tx.runnerID(issuer: identity.issuer, subject: identity.subject) {
                try await tx.setAccount(runner: id, email: identity.email, provider: identity.provider)
                return (id, false)
            }
            return (try await tx.createRunner(name: nil, identity: identity, at: now), true)
        }
        return (try await runner(id: id), isNew)
    }

    /// The runner named `name` (a CLI runner, a role on PostgreSQL), made if they have no runner
    /// yet through the path a sign-in takes: what `runnect serve token` issues tokens for.
    public func runner(named name: String) async throws -> Runner {
        try Self.checkUser(name)
        let now = Date()
        let id = try await write { tx -> Int64 in
            if let runner = try await tx.runners(names: [name]).first { return runner.id }
            return try await tx.createRunner(name: name, identity: nil, at: now)
        }
        return try await runner(id: id)
    }

    /// Runner `id`.
    /// - Throws: ``StoreError/runnerNotFound(_:)``.
    public func runner(id: Int64) async throws -> Runner {
        guard let runner = try await runners(ids: [id])[id] else { throw StoreError.runnerNotFound(id) }
        return runner
    }

    /// The runners with these ids (withdrawn ones too), by id.
    public func runners(ids: [Int64]) async throws -> [Int64: Runner] {
        let found = try await read { tx in try await tx.runners(ids: ids) }
        return Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The runners with these names, by name: who owns a list's courses.
    public func runners(named names: [String]) async throws -> [String: Runner] {
        let found = try await read { tx in try await tx.runners(names: Array(Set(names))) }
        return Dictionary(found.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The SHA-256 (lowercase hex) of runner `id`'s one valid refresh token; `nil` when none is
    /// (never issued, or withdrawn). For a server.
    public func refreshTokenHash(runner id: Int64) async throws -> String? {
        try await read { tx in try await tx.refreshTokenHash(runner: id) }
    }

    /// Makes `hash` runner `id`'s one valid refresh token: an earlier one stops working. For a
    /// server.
    public func setRefreshTokenHash(runner id: Int64, _ hash: String?) async throws {
        try await write { tx in try await tx.setRefreshTokenHash(runner: id, hash) }
    }

    /// Gives the current user the nickname others see. Keeping one's own is allowed.
    /// - Parameter nickname: 1–``Runner/maximumNicknameLength`` characters after trimming.
    /// - Returns: The runner as changed.
    /// - Throws: ``StoreError/invalidNickname(_:)``, ``StoreError/nicknameTaken(_:)``,
    ///   ``StoreError/controlCharacter(field:scalar:position:)``.
    public func setNickname(_ nickname: String) async throws -> Runner {
        try Self.refuseControlCharacters(in: nickname, field: "nickname")
        let nickname = nickname.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        guard (1...Runner.maximumNicknameLength).contains(nickname.count) else {
            throw StoreError.invalidNickname(nickname)
        }
        let now = Date()
        try await write { tx in try await tx.setNickname(nickname, at: now) }
        guard let runner = try await runners(named: [user])[user] else { throw StoreError.invalidUser(user) }
        return runner
    }

    /// What a withdrawal took.
    public struct Withdrawal: Sendable, Equatable {
        /// The runner who withdrew.
        public var runnerID: Int64
        /// The map images of the private courses deleted (their files are the caller's).
        public var images: [String]
    }

    /// The current user withdraws: their private courses (with their own records of them),
    /// records and scraps are deleted, and their e-mail, nickname, refresh token and sign-in
    /// identities forgotten. Their shared courses stay for others, shown without them; their
    /// name stays taken. All or nothing.
    public func withdraw() async throws -> Withdrawal {
        try await write { tx in
            guard let runner = try await tx.runners(names: [self.user]).first, !runner.isWithdrawn else {
                throw StoreError.invalidUser(self.user)
            }
            var privateIDs: [Int64] = []
            var offset = 0
            while true {
                let page = try await tx.courseIDs(.mine(uploaded: false), sort: .date, limit: 1000, offset: offset)
                privateIDs += page
                offset += page.count
                if page.count < 1000 { break }
            }
            let images = try await tx.courseImages(ids: privateIDs)
            if !privateIDs.isEmpty { try await tx.deleteCourses(ids: privateIDs) }
            var recordIDs: [Int64] = []
            while true {
                let page = try await tx.records(course: nil, sort: .date, limit: 1000, offset: 0)
                recordIDs = page.map(\.id)
                if recordIDs.isEmpty { break }
                try await tx.deleteRecords(ids: recordIDs)
            }
            while true {
                let scrapped = try await tx.courseIDs(.scrapped, sort: .date, limit: 1000, offset: 0)
                if scrapped.isEmpty { break }
                for id in scrapped { try await tx.removeScrap(course: id) }
            }
            try await tx.withdrawRunner(at: Date())
            return Withdrawal(runnerID: runner.id, images: privateIDs.compactMap { images[$0] }.sorted())
        }
    }

    // MARK: - Map images

    /// Gives one of the current user's courses the map image the app uploaded (its file name).
    public func setImage(course id: Int64, image: String) async throws {
        try await write { tx in
            let course = try await self.fetchCourse(tx, id: id)
            guard course.owner == self.user else { throw StoreError.notOwner(id: id, owner: course.owner) }
            try await tx.setCourseImage(course: id, image: image)
        }
    }

    /// The uploaded map images of these courses (deleted ones kept for records included), by id;
    /// courses without one are left out.
    public func images(courses ids: [Int64]) async throws -> [Int64: String] {
        try await read { tx in try await tx.courseImages(ids: ids) }
    }

    /// How many courses the current user owns, and the file names of their map images: what a
    /// server's per-runner limits count.
    public func holdings() async throws -> (courses: Int, images: [String]) {
        try await read { tx in try await tx.holdings() }
    }

    /// The path of any course (a deleted one kept for records too), whoever owns it, to draw its
    /// preview; `nil` when there is none. For a server, which names previews by a code only it
    /// can make.
    public func previewActivity(course id: Int64) async throws -> Activity? {
        guard let data = try await read({ tx in try await tx.previewGeometry(course: id) }) else { return nil }
        do {
            return try ActivityCodec.decode(data)
        } catch {
            throw StoreError.corruptGeometry(id: id, reason: "\(error)")
        }
    }

    // MARK: - Reported runs and rankings

    /// Stores a run the app timed itself (a time, no track) as a record of a course the current
    /// user can see: never merged with an earlier one, marked as reported.
    /// - Parameters:
    ///   - course: The course run.
    ///   - title: 1–40 characters after trimming.
    ///   - seconds: The time the app measured (the caller checked it is possible for the course).
    ///   - paceSeconds: The pace the app reported, seconds a kilometre.
    ///   - fromSharedPage: Whether the run was started from the course's shared page.
    /// - Throws: ``StoreError/notFound(_:)``, ``StoreError/invalidTitle(_:)``.
    public func reportRun(
        course: Int64, title: String, seconds: Double, paceSeconds: Double, fromSharedPage: Bool
    ) async throws -> RunRecord {
        let title = try Self.validTitle(title)
        let empty = Activity(format: .pointsText)
        let statsJSON = try StoredStats(empty.stats()).json()
        let geometry = try ActivityCodec.encode(empty)
        var nonce = [UInt8](repeating: 0, count: 32)
        for index in nonce.indices { nonce[index] = UInt8.random(in: 0...255) }
        let hash = ContentHash.of(nonce)
        return try await write { tx in
            let target = try await self.visibleCourse(tx, id: course)
            let meters = target.stats.distanceMeters
            var record = NewRecord(
                owner: self.user, courseID: target.id, title: title, sourceFormat: "app", contentHash: hash,
                createdAt: Date(), startTime: nil, distanceMeters: meters, pointCount: 0,
                deviceTimerSeconds: seconds, courseTimeSeconds: seconds, courseDistanceMeters: meters,
                matchCoverage: 0, statsJSON: statsJSON, geometry: geometry)
            record.marks = RecordMarks(
                isReported: true, reportedPaceSeconds: paceSeconds, isFromSharedPage: fromSharedPage)
            let id = try await tx.insertRecord(record)
            return try await self.fetchRecord(tx, id: id)
        }
    }

    /// What the app added to these records of the current user, by id.
    public func recordMarks(ids: [Int64]) async throws -> [Int64: RecordMarks] {
        try await read { tx in try await tx.recordMarks(ids: ids) }
    }

    /// Every runner's best time on a course, fastest first, each with their runner: measured
    /// times (from a track) and times the app reported alike, told apart by
    /// ``RankingEntry/isMeasured``. For a server (the caller decides who may see it).
    public func ranking(course id: Int64) async throws -> [RankingEntry] {
        let rows = try await read { tx in try await tx.rankingRows(course: id) }
        let runners = try await runners(ids: rows.map(\.runnerID))
        var entries: [RankingEntry] = []
        for row in rows {
            guard let runner = runners[row.runnerID] else { continue }
            let pace =
                row.marks.reportedPaceSeconds
                ?? Pace.secondsPerKilometer(seconds: row.seconds, meters: row.courseMeters) ?? 0
            entries.append(
                RankingEntry(
                    rank: entries.count + 1, runner: runner, recordID: row.recordID, seconds: row.seconds,
                    paceSecondsPerKilometer: pace, isMeasured: !row.marks.isReported))
        }
        return entries
    }
}

extension CourseStore {
    /// What records show of their courses (live ones the current user may read, and deleted
    /// ones kept for records), by id.
    public func recordCourses(ids: [Int64]) async throws -> [Int64: RecordCourse] {
        try await read { tx in try await tx.recordCourses(ids: ids) }
    }
}
