import Foundation
import PostgresNIO
import RunnectStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The PostgreSQL backend of ``CourseStore``: a store on a database set up by
/// `runnect db init`, reached through postgres-nio's `PostgresClient` (its pool of connections).
///
/// Each transaction runs as the runner the store names (`CourseStore.acting(as:)`): as the role
/// that connected, or, when the role is a server's (a member of `runnect_server`), as the
/// runner's own login role through `SET LOCAL ROLE`, so that row-level security decides every
/// statement either way.
///
/// Reads are `REPEATABLE READ READ ONLY` (one snapshot, as SQLite's); writes are `READ COMMITTED`,
/// so that an insert meeting a concurrent one of the same content waits for it and sees it.
/// A transaction the server ends with a serialization failure or a deadlock (SQLSTATE `40001`,
/// `40P01`) runs again, a few times, after a random pause; one whose connection was lost before
/// it committed runs again on another connection, for up to ``reconnectSeconds`` (a restarting
/// server). A connection lost while committing leaves the outcome unknown: that is
/// reported, never retried.
package final class PostgresBackend: StoreBackend {
    /// The database, as the URL names it.
    package let url: PostgresURL
    /// The role that connected (`current_user` before any `SET ROLE`).
    package let sessionUser: String
    /// How a search reads the server's rows; tests read one row first to cross page boundaries on
    /// small stores.
    package let searchPlans: PostgresSearchPlans
    let client: PostgresClient
    /// The client's run loop: cancelled when the backend goes.
    private let running: Task<Void, Never>
    /// The planner's estimates of tokens, kept for every search of this backend.
    let searchEstimates = PostgresSearchEstimates()

    /// Most runs of a transaction ended by a serialization failure or a deadlock.
    static let maximumAttempts = 8
    /// How long a transaction waits for a connection (a restarting server), seconds: by default
    /// ``defaultReconnectSeconds``; a server answering clients waits less.
    let reconnectSeconds: Double
    /// A command's patience with a restarting server.
    package static let defaultReconnectSeconds: Double = 15

    /// Taken first in every write transaction: one runner's writes (two imports of the same
    /// files, say) go one after the other, while different runners write side by side. Without
    /// it, two transactions of one runner storing the same runs in different orders each wait on
    /// a row the other inserted: a deadlock, again on every retry. Two 32-bit keys (a space of
    /// their own, apart from `db init`'s 64-bit one): Runnect's (`RNCT`), and the role's name
    /// hashed.
    static let oneWriterPerRunner = "SELECT pg_advisory_xact_lock(\(0x524E_4354), hashtext(current_user))"

    package var location: String { url.description }
    /// The client pool's connections at most.
    package let connectionLimit: Int
    package var defaultUser: String { sessionUser }
    package var supportedSchemaVersion: Int { PostgresSchema.supportedVersion }

    /// Connects once to read who is acting and check the schema, writing nothing, then starts the
    /// client's pool.
    /// - Throws: `StoreError.cannotOpen(path:reason:)` when the server cannot be reached, refuses
    ///   the login, or the database has no runnect schema (or an older one) yet;
    ///   `StoreError.newerSchema(found:supported:)` for a schema from a newer runnect.
    package init(
        url: PostgresURL, searchPlans: PostgresSearchPlans = .standard,
        reconnectSeconds: Double = PostgresBackend.defaultReconnectSeconds
    ) async throws {
        self.url = url
        self.reconnectSeconds = reconnectSeconds
        self.searchPlans = searchPlans
        sessionUser = try await PostgresSession.with(url) { session in
            let (user, database) = try await session.query("SELECT current_user::text, current_database()::text")[0]
                .decode((String, String).self)
            let version = try await PostgresSchema.checkedVersion(session)
            guard version == PostgresSchema.supportedVersion else {
                let state =
                    version == 0
                    ? "has no Runnect schema"
                    : "has Runnect schema version \(version) (this build: \(PostgresSchema.supportedVersion))"
                throw StoreError.cannotOpen(
                    path: url.description,
                    reason: "database \(database) \(state); run `runnect db init --db URL` as an administrator first")
            }
            return user
        }
        let configuration: PostgresClient.Configuration
        do {
            configuration = try url.clientConfiguration()
        } catch {
            throw StoreError.cannotOpen(path: url.description, reason: "TLS set-up failed: \(error)")
        }
        connectionLimit = configuration.options.maximumConnections
        let client = PostgresClient(configuration: configuration, backgroundLogger: PostgresSession.silentLogger)
        self.client = client
        running = Task { await client.run() }
    }

    deinit {
        running.cancel()
    }

    /// The schema version, as ``PostgresSchema/checkedVersion(_:)`` reads it, without writing.
    static func checkedVersion(_ session: PostgresTransaction) async throws -> Int {
        let table = try await session.query("SELECT to_regclass('public.schema_version') IS NOT NULL")
        guard try table.rows.first?.decode(Bool.self) == true else { return 0 }
        var applied: [Int: String] = [:]
        for row in try await session.query("SELECT version, name FROM schema_version").rows {
            let (version, name) = try row.decode((Int, String).self)
            applied[version] = name
        }
        let supported = PostgresSchema.supportedVersion
        let known = applied.allSatisfy { version, name in
            version >= 1 && version <= supported && PostgresSchema.migrations[version - 1].name == name
        }
        let found = applied.keys.max() ?? 0
        guard known else { throw StoreError.newerSchema(found: found, supported: supported) }
        return found
    }

    /// The schema version the database is at.
    package func schemaVersion() async throws -> Int {
        try await read(as: sessionUser) { transaction in
            try await Self.checkedVersion(transaction as! PostgresTransaction)
        }
    }

    /// Makes each name a runner's login role (without a password) unless it is one: a copy's
    /// owners. Needs an administrator (as `runnect db add-user NAME --no-password --existing`).
    ///
    /// Refuses, before anything is written, a name that differs from its trimmed, NFC form (a
    /// lookalike of another runner: `alice ` beside `alice`), and, unless `enrollingExisting`, a
    /// name of an existing role that is not a runner (not a member of `runnect_runner`:
    /// `postgres`, an administrator, a service's role), which a copy would otherwise make a
    /// runner and give its courses.
    ///
    /// - Returns: The existing roles that were not runners and are now (only with
    ///   `enrollingExisting`).
    /// - Throws: `PostgresAdministrationError.unnormalizedOwners(_:)`,
    ///   `PostgresAdministrationError.existingRolesNotRunners(_:)`,
    ///   `PostgresAdministrationError.invalidRoleName(_:reason:)` for a name PostgreSQL cannot
    ///   take as a role; `StoreError.database(_:)` when the role connected may not create roles.
    @discardableResult
    package func ensureUsers(_ names: [String], enrollingExisting: Bool = false) async throws -> [String] {
        // By bytes: Swift's `==` holds canonically equivalent texts equal (NFD `é` to NFC `é`).
        let unnormalized = names.filter {
            !$0.trimmingCharacters(in: .whitespacesAndNewlines).composed.utf8.elementsEqual($0.utf8)
        }
        guard unnormalized.isEmpty else { throw PostgresAdministrationError.unnormalizedOwners(unnormalized) }
        let roles = try names.map(RoleName.init)
        return try await write(as: sessionUser) { transaction in
            let tx = transaction as! PostgresTransaction
            let database = try await tx.value(String.self, "SELECT current_database()") ?? ""
            // Whether each existing role is a runner: a direct member of the group (pg_has_role
            // would count a superuser a member of every role).
            var isRunner: [String: Bool] = [:]
            let rows = try await tx.query(
                """
                SELECT r.rolname, EXISTS (
                    SELECT 1 FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid
                    WHERE m.member = r.oid AND g.rolname = \(PostgresSchema.runnerGroup))
                FROM pg_roles r WHERE r.rolname = ANY(\(names))
                """
            ).rows
            for row in rows {
                let (name, runner) = try row.decode((String, Bool).self)
                isRunner[name] = runner
            }
            let strangers = names.filter { isRunner[$0] == false }
            guard strangers.isEmpty || enrollingExisting else {
                throw PostgresAdministrationError.existingRolesNotRunners(strangers)
            }
            for role in roles {
                if isRunner[role.name] == nil { try await tx.execute("CREATE ROLE \(role.quoted) LOGIN") }
                for statement in PostgresAdministration.enrolling(role, database: database) {
                    try await tx.execute(statement)
                }
            }
            try await tx.execute(PostgresAdministration.serveEveryRunner)
            return strangers
        }
    }

    package func read<T: Sendable>(
        as user: String, _ body: @escaping @Sendable (any StoreTransaction) async throws -> T
    ) async throws -> T {
        try await run(as: user, readOnly: true, body)
    }

    package func write<T: Sendable>(
        as user: String, _ body: @escaping @Sendable (any StoreTransaction) async throws -> T
    ) async throws -> T {
        try await run(as: user, readOnly: false, body)
    }

    /// Postings are a B-tree kept up to date by every insert: nothing to merge. `ANALYZE` gives the
    /// planner the figures of a bulk import.
    package func optimizeSearch() async throws {
        try await run(as: sessionUser, readOnly: false) { transaction in
            try await (transaction as! PostgresTransaction).execute("ANALYZE course_search")
        }
    }

    /// `runnect db optimize` as the tables' owner (``PostgresAdministration/optimize(_:stepDone:)``).
    package func optimize(
        stepDone: @escaping @Sendable (OptimizeReport.Step) -> Void
    ) async throws -> OptimizeReport {
        try await PostgresAdministration.optimize(url, stepDone: stepDone)
    }

    /// `runnect db check` as the tables' owner (``PostgresAdministration/check(_:)``).
    package func check() async throws -> StoreCheckFindings {
        try await PostgresAdministration.check(url)
    }

    /// Without ``oneWriterPerRunner``: a copy's batches (an administrator's, of rows that never
    /// overlap) each on a connection and a server process of its own, so that the server's work
    /// (index upkeep, mostly) runs on every core.
    package func writeBeside<T: Sendable>(
        as user: String, _ body: @escaping @Sendable (any StoreTransaction) async throws -> T
    ) async throws -> T {
        try await run(as: user, readOnly: false, oneWriter: false, body)
    }

    /// Four: the server's work of a copy is about three times the client's, and with two writers
    /// a core still idled while each waited on the other's batch (Benchmarks.md).
    package var copyWriters: Int { 4 }

    /// Into a store without a course, the pieces' box index (schema version 9) is dropped, to be
    /// built whole by ``copyCoursesEnded()``: `CREATE INDEX` sorts the boxes along a
    /// space-filling curve, which reads far fewer pages than an index grown by inserts.
    ///
    /// Under `runnect db init`'s lock (``PostgresSchema/lockKey``), as the index's build at the
    /// copy's end is: `db init` builds a missing box index too, and two `CREATE INDEX IF NOT
    /// EXISTS` of one name at once fail one of them (the name's entry in the catalogue).
    package func copyCoursesBegin() async throws -> Bool {
        try await write(as: sessionUser) { transaction in
            let tx = transaction as! PostgresTransaction
            try await tx.execute(Self.schemaLock)
            guard try await tx.value(Bool.self, "SELECT NOT EXISTS (SELECT FROM course)") == true else {
                return false
            }
            try await tx.execute("DROP INDEX IF EXISTS course_piece_box")
            return true
        }
    }

    /// Builds the pieces' box index if it is missing (``PostgresSchema/pieceBoxIndex``), under
    /// `runnect db init`'s lock (``copyCoursesBegin()`` tells why).
    package func copyCoursesEnded() async throws {
        try await write(as: sessionUser) { transaction in
            let tx = transaction as! PostgresTransaction
            try await tx.execute(Self.schemaLock)
            try await tx.execute("SET LOCAL maintenance_work_mem = '1GB'")
            try await tx.execute(PostgresSchema.pieceBoxIndex)
        }
    }

    /// Takes `runnect db init`'s lock until the transaction ends.
    static let schemaLock = "SELECT pg_advisory_xact_lock(\(PostgresSchema.lockKey))"

    /// Runs `body` in a transaction on a connection of the client's pool, as `user`, again when
    /// the server asks for it; a write one after the runner's other writes unless `oneWriter` is
    /// false.
    private func run<T: Sendable>(
        as user: String, readOnly: Bool, oneWriter: Bool = true,
        _ body: @escaping @Sendable (any StoreTransaction) async throws -> T
    ) async throws -> T {
        let role = user == sessionUser ? nil : try RoleName(user)
        var attempt = 1
        let started = Date()
        var lostSince: Date?
        while true {
            let phase = TransactionPhase()
            // The patience is one window: from the start, or from a loss that came after it.
            let window = lostSince ?? started
            let waiting = max(0.1, self.reconnectSeconds - Date().timeIntervalSince(window))
            do {
                return try await withConnection(phase: phase, waiting: waiting) { connection in
                    let transaction = PostgresTransaction(
                        connection: connection, user: user, plans: self.searchPlans, estimates: self.searchEstimates)
                    return try await transaction.run(
                        readOnly: readOnly, role: role, oneWriter: oneWriter, phase: phase, body)
                }
            } catch {
                let failure = PostgresFailure(error)
                if failure.isConnectionLost {
                    if phase.committing && !readOnly {
                        throw StoreError.unavailable(
                            "the connection to \(location) was lost while committing: what this command "
                                + "changed may or may not be stored; run it again")
                    }
                    // Again on another connection: after a server's restart the pool may hand out
                    // several connections it has not yet seen closed, and the server may still be
                    // starting.
                    // A loss within the first window counts from the start, so that a request
                    // waits one window in all, not one for a connection and another after it.
                    let now = Date()
                    let first = lostSince ?? (now.timeIntervalSince(started) < self.reconnectSeconds ? started : now)
                    lostSince = first
                    if Date().timeIntervalSince(first) < self.reconnectSeconds {
                        try await Task.sleep(nanoseconds: 100_000_000)
                        continue
                    }
                    throw StoreError.unavailable(
                        "the connection to \(location) was lost and not regained within "
                            + "\(Int(self.reconnectSeconds)) s: \(PostgresSession.message(of: error)); run it again")
                } else if failure.isRetryable && attempt < Self.maximumAttempts {
                    attempt += 1
                    try await Task.sleep(nanoseconds: UInt64.random(in: 1_000_000...(10_000_000 * UInt64(attempt))))
                    continue
                }
                // Not granted (42501), or no such role (22023: `SET ROLE`'s invalid value).
                if let role, phase.settingRole, ["42501", "22023"].contains(failure.sqlState ?? "") {
                    throw StoreError.cannotActAs(user: role.name, role: sessionUser)
                }
                throw failure.storeError ?? error
            }
        }
    }

    /// Leases a connection of the pool for `body`, waiting up to `waiting` seconds for one (the
    /// body itself may take as long as it takes).
    private func withConnection<T: Sendable>(
        phase: TransactionPhase, waiting: Double, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: Leased<T>.self) { group in
            group.addTask {
                .done(
                    try await self.client.withConnection { connection in
                        phase.leased = true
                        return try await body(connection)
                    })
            }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(waiting * 1e9))
                return .timedOut
            }
            while let next = try await group.next() {
                switch next {
                case .done(let value):
                    group.cancelAll()
                    return value
                case .timedOut where phase.leased:
                    continue
                case .timedOut:
                    group.cancelAll()
                    throw StoreError.unavailable(
                        "no connection to \(location) within \(Int(self.reconnectSeconds)) s")
                }
            }
            throw CancellationError()
        }
    }

    /// What came first: the leased connection's work, or the wait's end.
    private enum Leased<T: Sendable>: Sendable {
        case done(T)
        case timedOut
    }
}

/// How far a transaction got: whether it has its connection yet, and whether its failure came
/// while setting the runner's role, or while committing (when its outcome is unknown).
final class TransactionPhase: @unchecked Sendable {
    private let lock = NSLock()
    private var _leased = false
    private var _settingRole = false
    private var _committing = false

    var leased: Bool {
        get { lock.withLock { _leased } }
        set { lock.withLock { _leased = newValue } }
    }
    var settingRole: Bool {
        get { lock.withLock { _settingRole } }
        set { lock.withLock { _settingRole = newValue } }
    }
    var committing: Bool {
        get { lock.withLock { _committing } }
        set { lock.withLock { _committing = newValue } }
    }
}
