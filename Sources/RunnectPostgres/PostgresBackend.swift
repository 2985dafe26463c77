import Foundation
import PostgresNIO
import RunnectStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The PostgreSQL backend of ``CourseStore``: a store on a database set up by
/// `runnect db init`, acting as the role the URL connects as.
///
/// Every transaction runs on a connection of a small pool, so one store serves several threads.
/// Reads are `REPEATABLE READ READ ONLY` (one snapshot, as SQLite's); writes are `READ COMMITTED`,
/// so that an insert meeting a concurrent one of the same content waits for it and sees it.
/// A transaction the server ends with a serialization failure or a deadlock (SQLSTATE `40001`,
/// `40P01`) runs again, a few times, after a random pause; one whose connection was lost before
/// it committed runs again once on a new connection (waiting for a restarting server up to
/// ``PostgresConnectionPool/reconnectSeconds``). A connection lost while committing leaves the
/// outcome unknown: that is reported, never retried.
package final class PostgresBackend: StoreBackend {
    /// The database, as the URL names it.
    package let url: PostgresURL
    /// The role that connected (`current_user`).
    package let user: String
    /// How a search reads the server's rows; tests read one row first to cross page boundaries on
    /// small stores.
    package let searchPlans: PostgresSearchPlans
    let pool: PostgresConnectionPool
    /// The planner's estimates of tokens, kept for every search of this backend.
    let searchEstimates = PostgresSearchEstimates()

    /// Most runs of a transaction ended by a serialization failure or a deadlock.
    static let maximumAttempts = 8

    /// Taken first in every write transaction: one runner's writes (two imports of the same
    /// files, say) go one after the other, while different runners write side by side. Without
    /// it, two transactions of one runner storing the same runs in different orders each wait on
    /// a row the other inserted: a deadlock, again on every retry (seen with 16 imports as 8
    /// roles). Two 32-bit keys (a space of their own, apart from `db init`'s 64-bit one):
    /// Runnect's (`RNCT`), and the role's name hashed.
    static let oneWriterPerRunner = "SELECT pg_advisory_xact_lock(\(0x524E_4354), hashtext(current_user))"

    package var location: String { url.description }
    package var supportedSchemaVersion: Int { PostgresSchema.supportedVersion }

    /// Connects, reads who is acting and checks the schema, writing nothing.
    /// - Throws: `StoreError.cannotOpen(path:reason:)` when the server cannot be reached, refuses
    ///   the login, or the database has no runnect schema (or an older one) yet;
    ///   `StoreError.newerSchema(found:supported:)` for a schema from a newer runnect.
    package init(url: PostgresURL, searchPlans: PostgresSearchPlans = .standard) throws {
        self.url = url
        self.searchPlans = searchPlans
        pool = try PostgresConnectionPool(url: url)
        let connection = try pool.checkOut()
        do {
            let session = PostgresTransaction(connection: connection, user: "", plans: searchPlans)
            user = try session.query("SELECT current_user::text").rows[0].decode(String.self)
            let version = try Self.checkedVersion(session)
            guard version == PostgresSchema.supportedVersion else {
                let state = version == 0 ? "has no runnect schema" : "has runnect schema version \(version)"
                throw StoreError.cannotOpen(
                    path: url.description,
                    reason: "the database \(state) (this build: \(PostgresSchema.supportedVersion)); "
                        + "run `runnect db init --db URL` as an administrator first")
            }
            pool.checkIn(connection)
        } catch let error as StoreError {
            pool.discard(connection)
            throw error
        } catch {
            pool.discard(connection)
            throw StoreError.cannotOpen(path: url.description, reason: PostgresSession.message(of: error))
        }
    }

    /// The schema version, as ``PostgresSchema/checkedVersion(_:)`` reads it, without writing.
    static func checkedVersion(_ session: PostgresTransaction) throws -> Int {
        let table = try session.query("SELECT to_regclass('public.schema_version') IS NOT NULL")
        guard try table.rows.first?.decode(Bool.self) == true else { return 0 }
        var applied: [Int: String] = [:]
        for row in try session.query("SELECT version, name FROM schema_version").rows {
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
    package func schemaVersion() throws -> Int {
        try read { transaction in try Self.checkedVersion(transaction as! PostgresTransaction) }
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
    package func ensureUsers(_ names: [String], enrollingExisting: Bool = false) throws -> [String] {
        // By bytes: Swift's `==` holds canonically equivalent texts equal (NFD `é` to NFC `é`).
        let unnormalized = names.filter {
            !$0.trimmingCharacters(in: .whitespacesAndNewlines).composed.utf8.elementsEqual($0.utf8)
        }
        guard unnormalized.isEmpty else { throw PostgresAdministrationError.unnormalizedOwners(unnormalized) }
        let roles = try names.map(RoleName.init)
        return try write { transaction in
            let tx = transaction as! PostgresTransaction
            let database = try tx.value(String.self, "SELECT current_database()") ?? ""
            // Whether each existing role is a runner: a direct member of the group (pg_has_role
            // would count a superuser a member of every role).
            var isRunner: [String: Bool] = [:]
            let rows = try tx.query(
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
                if isRunner[role.name] == nil { try tx.execute("CREATE ROLE \(role.quoted) LOGIN") }
                try tx.execute("GRANT \(PostgresSchema.runnerGroup) TO \(role.quoted)")
                try tx.execute("GRANT CONNECT ON DATABASE \(RoleName.quote(database)) TO \(role.quoted)")
            }
            return strangers
        }
    }

    package func read<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        try run(readOnly: true, body)
    }

    package func write<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        try run(readOnly: false, body)
    }

    /// Postings are a B-tree kept up to date by every insert: nothing to merge. `ANALYZE` gives the
    /// planner the figures of a bulk import.
    package func optimizeSearch() throws {
        try run(readOnly: false) { transaction in
            try (transaction as! PostgresTransaction).execute("ANALYZE course_search")
        }
    }

    /// Without ``oneWriterPerRunner``: a copy's batches (an administrator's, of rows that never
    /// overlap) each on a connection and a server process of its own, so that the server's work
    /// (index upkeep, mostly) runs on every core.
    package func writeBeside<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        try run(readOnly: false, oneWriter: false, body)
    }

    /// Four: the server's work of a copy is about three times the client's (by CPU time, 100,000
    /// courses), and with two writers a core still idled while each waited on the other's batch
    /// or the client's drafting. Copies of the near-me benchmark's 100,000 courses, alternating,
    /// 2026-11-27: the machine's CPU over the wall time 1.72–1.83 cores (mean 1.77, seven runs)
    /// with two writers, 1.79–1.84 (1.81, seven) with three, 1.83–1.87 (1.86, four) with four,
    /// the CPU of a run the same within the machine's drift.
    package var copyWriters: Int { 4 }

    /// Into a store without a course, the pieces' box index (schema version 9) is dropped, to be
    /// built whole by ``copyCoursesEnded()``: `CREATE INDEX` sorts the boxes along a
    /// space-filling curve, where a million courses' inserts left an index that read 327 pages
    /// to find nothing in the Sahara (5 once built, 41 s for 15.5 million pieces) and 573 for
    /// the 25 m ring at Jamsil (about 40), and each insert no longer pays for its pieces' entries.
    ///
    /// Under `runnect db init`'s lock (``PostgresSchema/lockKey``), as the index's build at the
    /// copy's end is: `db init` builds a missing box index too, and two `CREATE INDEX IF NOT
    /// EXISTS` of one name at once fail one of them (the name's entry in the catalogue).
    package func copyCoursesBegin() throws -> Bool {
        try write { transaction in
            let tx = transaction as! PostgresTransaction
            try tx.execute(Self.schemaLock)
            guard try tx.value(Bool.self, "SELECT NOT EXISTS (SELECT FROM course)") == true else { return false }
            try tx.execute("DROP INDEX IF EXISTS course_piece_box")
            return true
        }
    }

    /// Builds the pieces' box index if it is missing (``PostgresSchema/pieceBoxIndex``), under
    /// `runnect db init`'s lock (``copyCoursesBegin()`` tells why).
    package func copyCoursesEnded() throws {
        try write { transaction in
            let tx = transaction as! PostgresTransaction
            try tx.execute(Self.schemaLock)
            try tx.execute("SET LOCAL maintenance_work_mem = '1GB'")
            try tx.execute(PostgresSchema.pieceBoxIndex)
        }
    }

    /// Takes `runnect db init`'s lock until the transaction ends.
    static let schemaLock = "SELECT pg_advisory_xact_lock(\(PostgresSchema.lockKey))"

    /// Runs `body` in a transaction on a pooled connection, again when the server asks for it;
    /// a write one after the user's other writes unless `oneWriter` is false.
    private func run<T>(
        readOnly: Bool, oneWriter: Bool = true, _ body: (any StoreTransaction) throws -> T
    ) throws -> T {
        var attempt = 1
        var reconnected = false
        while true {
            let connection = try pool.checkOut(patiently: reconnected)
            let transaction = PostgresTransaction(
                connection: connection, user: user, plans: searchPlans, estimates: searchEstimates)
            var committing = false
            do {
                // A read's BEGIN is not waited for: its first statement follows it on the
                // connection (a round trip fewer); should it fail, so does what follows, and the
                // read is refused with its error.
                var begun: EventLoopFuture<PostgresQueryResult>?
                if readOnly {
                    begun = try transaction.send("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                } else {
                    try transaction.execute("BEGIN")
                    if oneWriter { try transaction.execute(Self.oneWriterPerRunner) }
                }
                let value = try body(transaction)
                _ = try begun?.wait()
                committing = true
                try transaction.execute("COMMIT")
                pool.checkIn(connection)
                return value
            } catch {
                let failure = PostgresFailure(error)
                if failure.isConnectionLost || connection.isClosed {
                    pool.discard(connection)
                    if committing && !readOnly {
                        throw StoreError.database(
                            "the connection to \(location) was lost while committing: what this command "
                                + "changed may or may not be stored; run it again")
                    }
                    guard reconnected else {
                        reconnected = true
                        continue
                    }
                } else {
                    // A failed COMMIT has already ended the transaction; ROLLBACK then only warns.
                    _ = try? transaction.query("ROLLBACK")
                    pool.checkIn(connection)
                    if failure.isRetryable && attempt < Self.maximumAttempts {
                        attempt += 1
                        usleep(UInt32.random(in: 1_000...(10_000 * UInt32(attempt))))
                        continue
                    }
                }
                throw failure.storeError ?? error
            }
        }
    }
}

/// How a search reads the server's ordered superset: how far it walks the order's index first,
/// how many rows at a time, and when relevance goes tier by tier.
package struct PostgresSearchPlans: Sendable {
    /// Readable courses a slice of the answer first walks in the order asked before it weighs
    /// sorting the GIN index's matches instead; `nil`: always sort them.
    package var walkRows: Int?
    /// Relevance reads every match and sorts them when the first walk shows at most this many in
    /// the store.
    package var sortedMatches: Int
    /// Rows of the server's ordered superset read first for a slice of the answer; `nil`: the
    /// rows wanted and 8 more (the superset is rarely wider than the matches), `growth` times as
    /// many for a walk (each read of a walk walks its whole window).
    package var firstBatch: Int?
    /// Each further read is this many times the last (rows read again on a re-read stay under
    /// a third of the whole).
    package var growth: Int
    /// Relevance is read tier by tier for up to this many keywords (`(k + 1)²` tiers); longer
    /// queries, whose matches the AND makes few, sort their candidates.
    package var maxTieredWords: Int
    /// A one-keyword search in relevance order whose top tier is one token of the index reads
    /// that tier first, before any walk, when the planner expects from a page's worth to this
    /// many entries (readable or not: the read fetches them all) to hold the token; `nil`: never.
    package var topTierRows: Int?

    package init(
        walkRows: Int? = 1_024, sortedMatches: Int = 500, firstBatch: Int? = nil, growth: Int = 4,
        maxTieredWords: Int = 3, topTierRows: Int? = 2_000
    ) {
        self.walkRows = walkRows
        self.sortedMatches = sortedMatches
        self.firstBatch = firstBatch
        self.growth = max(2, growth)
        self.maxTieredWords = maxTieredWords
        self.topTierRows = topTierRows
    }

    /// The settings of the shipped store.
    package static let standard = PostgresSearchPlans()
}
