import Foundation
import PostgresNIO
import RunnectStore

/// Runners on PostgreSQL (schema version 18): the primitives of `StoreRunnerTransaction`.
///
/// A server's primitives run as the server's own role (a member of `runnect_server`, acting as
/// no runner): it reads `runner_account`, `runner_identity` and every course's map image, and
/// calls the functions granted to it alone (`runnect_create_runner`, `runnect_set_account`,
/// `runnect_preview_geometry`, `runnect_ranking`). The others run as the transaction's runner,
/// whom the policies hold to their own row: every runner reads `runner` and `runner_stamp`, and
/// their own e-mail only.
extension PostgresTransaction {
    // MARK: - Runners

    /// Every column of a runner and their stamps in the order earned: what ``runner(_:)``
    /// decodes. The e-mail is `NULL` where the role may not read it (another runner's).
    private static let runnerSelect = """
        SELECT r.id, r.name, r.nickname, a.email, r.provider, r.created_at, r.modified_at,
               r.withdrawn_at IS NOT NULL,
               ARRAY(SELECT s.stamp FROM runner_stamp s WHERE s.runner_id = r.id ORDER BY s.id)
        FROM runner r LEFT JOIN runner_account a ON a.runner_id = r.id
        """

    private static func runner(_ row: PostgresRow) throws -> Runner {
        let r = row.makeRandomAccess()
        return Runner(
            id: try r[0].decode(Int64.self), name: try r[1].decode(String.self),
            nickname: try r[2].decode(String?.self), email: try r[3].decode(String?.self),
            provider: try r[4].decode(String.self), createdAt: try r[5].decode(Date.self),
            modifiedAt: try r[6].decode(Date.self), stamps: try r[8].decode([String].self),
            isWithdrawn: try r[7].decode(Bool.self))
    }

    func runners(ids: [Int64]) async throws -> [Runner] {
        guard !ids.isEmpty else { return [] }
        let sql = "\(Self.runnerSelect) WHERE r.id = ANY($1)"
        return try await query(PostgresQuery(unsafeSQL: sql, binds: try binds(ids))).rows.map(Self.runner)
    }

    func runners(names: [String]) async throws -> [Runner] {
        guard !names.isEmpty else { return [] }
        let sql = "\(Self.runnerSelect) WHERE r.name = ANY($1)"
        return try await query(PostgresQuery(unsafeSQL: sql, binds: try binds(names))).rows.map(Self.runner)
    }

    func runnerID(issuer: String, subject: String) async throws -> Int64? {
        try await value(
            Int64.self, "SELECT runner_id FROM runner_identity WHERE issuer = \(issuer) AND subject = \(subject)")
    }

    /// A name is checked as a role's first (it is one, or becomes one).
    func createRunner(name: String?, identity: SignInIdentity?, at date: Date) async throws -> Int64 {
        if let name { _ = try RoleName(name) }
        let id = try await value(
            Int64.self,
            """
            SELECT runnect_create_runner(\(name), \(identity?.issuer), \(identity?.subject), \(identity?.email),
                                         \(identity?.provider), \(Self.milliseconds(date)))
            """)
        guard let id else { throw StoreError.database("runner \(name ?? "(new)") was not made") }
        return id
    }

    func setAccount(runner id: Int64, email: String?, provider: String) async throws {
        try await query("SELECT runnect_set_account(\(id), \(email), \(provider))")
    }

    func refreshTokenHash(runner id: Int64) async throws -> String? {
        try await value(
            String?.self,
            """
            SELECT a.refresh_token_sha256 FROM runner_account a JOIN runner r ON r.id = a.runner_id
            WHERE a.runner_id = \(id) AND r.withdrawn_at IS NULL
            """) ?? nil
    }

    func setRefreshTokenHash(runner id: Int64, _ hash: String?) async throws {
        try await query("UPDATE runner_account SET refresh_token_sha256 = \(hash) WHERE runner_id = \(id)")
    }

    func nicknameHolder(_ nickname: String) async throws -> Int64? {
        try await value(
            Int64.self,
            """
            SELECT id FROM runner WHERE nickname = \(nickname)
            UNION ALL SELECT id FROM runner WHERE nickname IS NULL AND name = \(nickname) AND withdrawn_at IS NULL
            LIMIT 1
            """)
    }

    /// A role that has done nothing yet gets its runner row first (`runnect_enroll_caller`); the
    /// nickname's unique index stands behind the check against a runner who took it meanwhile.
    func setNickname(_ nickname: String, at date: Date) async throws {
        var own = try await value(Int64.self, "SELECT id FROM runner WHERE name = \(user)")
        if own == nil {
            own = try await value(Int64?.self, "SELECT runnect_enroll_caller(\(Self.milliseconds(date)))") ?? nil
        }
        guard let own else { throw StoreError.invalidUser(user) }
        if let holder = try await nicknameHolder(nickname), holder != own {
            throw StoreError.nicknameTaken(nickname)
        }
        do {
            try await query(
                """
                UPDATE runner SET nickname = \(nickname), modified_at = \(Self.milliseconds(date))
                WHERE id = \(own) AND name = \(user)
                """)
        } catch let error where PostgresFailure(error).sqlState == "23505" {
            throw StoreError.nicknameTaken(nickname)
        }
    }

    /// Through `runnect_withdraw`, which acts on the caller's own row and role only.
    func withdrawRunner(at date: Date) async throws {
        try await query("SELECT runnect_withdraw(\(Self.milliseconds(date)))")
    }

    // MARK: - Images

    func setCourseImage(course id: Int64, image: String) async throws {
        try await query("UPDATE course SET image = \(image) WHERE id = \(id) AND owner = \(user)")
    }

    /// As a runner, row-level security leaves out what they may not read (another's private
    /// course, a deleted course they hold no record of); a server's role reads every course's.
    func courseImages(ids: [Int64]) async throws -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        var images: [Int64: String] = [:]
        for row in try await query(
            """
            SELECT id, image FROM course WHERE id = ANY(\(ids)) AND image IS NOT NULL
            UNION ALL SELECT id, image FROM deleted_course WHERE id = ANY(\(ids)) AND image IS NOT NULL
            """
        ).rows {
            let (id, image) = try row.decode((Int64, String).self)
            images[id] = image
        }
        return images
    }

    func holdings() async throws -> (courses: Int, images: [String]) {
        let count = try await value(Int.self, "SELECT count(*)::int8 FROM course WHERE owner = \(user)") ?? 0
        var images: [String] = []
        for row in try await query("SELECT image FROM course WHERE owner = \(user) AND image IS NOT NULL").rows {
            images.append(try row.decode(String.self))
        }
        return (count, images)
    }

    func previewGeometry(course id: Int64) async throws -> Data? {
        try await value(Data?.self, "SELECT runnect_preview_geometry(\(id))") ?? nil
    }

    // MARK: - Ranking and marks

    func rankingRows(course id: Int64) async throws -> [RankingRow] {
        try await query(
            """
            SELECT runner_id, record_id, course_time_s, course_distance_m, reported, reported_pace_s, public_course
            FROM runnect_ranking(\(id))
            """
        ).rows.map { row in
            let (runner, record, seconds, meters, reported, pace, shared) = try row.decode(
                (Int64, Int64, Double, Double, Bool, Double?, Bool).self)
            return RankingRow(
                runnerID: runner, recordID: record, seconds: seconds, courseMeters: meters,
                marks: RecordMarks(isReported: reported, reportedPaceSeconds: pace, isFromSharedPage: shared))
        }
    }

    func recordMarks(ids: [Int64]) async throws -> [Int64: RecordMarks] {
        guard !ids.isEmpty else { return [:] }
        var found: [Int64: RecordMarks] = [:]
        for row in try await query(
            """
            SELECT id, reported, reported_pace_s, public_course FROM record
            WHERE owner = \(user) AND id = ANY(\(ids))
            """
        ).rows {
            let (id, reported, pace, shared) = try row.decode((Int64, Bool, Double?, Bool).self)
            found[id] = RecordMarks(isReported: reported, reportedPaceSeconds: pace, isFromSharedPage: shared)
        }
        return found
    }
}
