import PostgresNIO
import RunnectStore

/// Setting up a PostgreSQL store and its runners, as an administrator role: what
/// `runnect db init` and `runnect db add-user` do.
///
/// Both are idempotent and run in one transaction each: a failure leaves the database as it was.
public enum PostgresAdministration {
    /// What ``initialize(_:)`` did.
    public struct InitReport: Sendable, Equatable {
        /// The database's name on the server.
        public var database: String
        /// The schema version now.
        public var schemaVersion: Int
        /// The migrations applied by this run (none when the schema was up to date).
        public var appliedVersions: [Int]
        /// Whether this run created the PostGIS extension.
        public var createdExtension: Bool
    }

    /// What ``addRunner(_:password:existing:server:at:)`` did.
    public struct AddRunnerReport: Sendable, Equatable {
        /// The role.
        public var role: String
        /// The database the role may now connect to.
        public var database: String
        /// Whether the role was created (else it existed and was only made a runner).
        public var created: Bool
        /// Whether this run gave the role a password (an existing role's is left as it was).
        public var setPassword: Bool
    }

    /// Sets up the store in the URL's database: the PostGIS extension, the runners' group role
    /// `runnect_runner`, the tables, triggers, row-level security policies and grants (the
    /// migrations it lacks), and takes the right to connect from `PUBLIC` (`add-user` gives it
    /// to each runner, so a runner of one club's database cannot open another's).
    ///
    /// A schema from a newer Runnect is refused before anything is written. Running it again is
    /// harmless: what exists is left as it is.
    ///
    /// - Throws: `StoreError.newerSchema(found:supported:)`,
    ///   ``PostgresAdministrationError/notAdministrator(role:)``,
    ///   ``PostgresAdministrationError/postgisNotInstalled``, and
    ///   `StoreError.cannotOpen(path:reason:)` or
    ///   `StoreError.database(_:)` for what the server refuses.
    public static func initialize(_ url: PostgresURL) async throws -> InitReport {
        try await initialize(url, upTo: PostgresSchema.supportedVersion)
    }

    /// ``initialize(_:)`` up to schema `version` only: for the tests of a migration.
    static func initialize(_ url: PostgresURL, upTo version: Int) async throws -> InitReport {
        try await PostgresSession.with(url) { session in
            _ = try await PostgresSchema.checkedVersion(session)
            try await requireAdministrator(session)
            let database = try await currentDatabase(session)
            let hasExtension = try await exists(session, "SELECT 1 FROM pg_extension WHERE extname = 'postgis'")
            if !hasExtension {
                guard try await exists(session, "SELECT 1 FROM pg_available_extensions WHERE name = 'postgis'") else {
                    throw PostgresAdministrationError.postgisNotInstalled
                }
            }
            let applied = try await session.transaction { session in
                try await session.query(PostgresQuery(unsafeSQL: PostgresBackend.schemaLock))
                try await session.execute([
                    "CREATE EXTENSION IF NOT EXISTS postgis",
                    """
                    DO $$ BEGIN
                        CREATE ROLE \(PostgresSchema.runnerGroup) NOLOGIN;
                    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
                    END $$
                    """,
                    // A server's role acts as each runner (`SET ROLE`) without their privileges.
                    """
                    DO $$ BEGIN
                        CREATE ROLE \(serverGroup) NOLOGIN NOINHERIT;
                    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
                    END $$
                    """,
                    "REVOKE CONNECT ON DATABASE \(RoleName.quote(database)) FROM PUBLIC",
                    "GRANT CONNECT ON DATABASE \(RoleName.quote(database)) TO \(serverGroup)",
                ])
                let applied = try await PostgresSchema.migrate(session, upTo: version)
                if version >= 9 { try await session.execute([PostgresSchema.pieceBoxIndex]) }
                // A server's role reads the schema version on opening; it reads nothing else itself.
                try await session.execute([serveEveryRunner, "GRANT SELECT ON schema_version TO \(serverGroup)"])
                return applied
            }
            // A table a migration rewrote row by row is left at twice its size, and every read
            // of it slower, until compacted: version 10's search entries at a million courses,
            // 1,508 → 3,011 MB and the searches' p95 9.4 → 12.5 ms; `VACUUM FULL` took 85 s.
            for migration in PostgresSchema.migrations where applied.contains(migration.version) {
                for table in migration.compacted {
                    try await session.query("VACUUM (FULL, ANALYZE) \(unescaped: table)")
                }
            }
            return InitReport(
                database: database, schemaVersion: version, appliedVersions: applied,
                createdExtension: !hasExtension)
        }
    }

    /// Makes `role` a runner of the URL's store: creates it as a login role (with `password`, when
    /// given) unless `existing`, makes it a member of `runnect_runner`, lets it connect to the
    /// database, and lets servers act as it (a grant to `runnect_server`) unless it is a
    /// superuser or bypasses row-level security, creates roles or replicates.
    ///
    /// With `server`, the role is a server's instead (`runnect serve`'s): a member of
    /// `runnect_server`, which connects as itself and runs each runner's transactions as the
    /// runner (`SET LOCAL ROLE`), so that row-level security holds it to that runner's rows.
    ///
    /// The password travels as a SCRAM-SHA-256 verifier computed here, never as itself.
    ///
    /// - Throws: ``PostgresAdministrationError`` (not an administrator, not initialised, the role
    ///   exists or is missing), `StoreError.newerSchema(found:supported:)`, and
    ///   `StoreError.database(_:)` for what the server refuses.
    public static func addRunner(
        _ role: RoleName, password: String?, existing: Bool, server: Bool = false, at url: PostgresURL
    ) async throws -> AddRunnerReport {
        let verifier = try password.map { try SCRAMVerifier(password: $0).text }
        return try await PostgresSession.with(url) { session in
            let database = try await currentDatabase(session)
            let version = try await PostgresSchema.checkedVersion(session)
            guard version > 0 else { throw PostgresAdministrationError.notInitialized(database: database) }
            guard version == PostgresSchema.supportedVersion else {
                throw PostgresAdministrationError.olderSchema(
                    found: version, supported: PostgresSchema.supportedVersion)
            }
            try await requireAdministrator(session)
            return try await session.transaction { session in
                let found = try await session.query("SELECT 1 FROM pg_roles WHERE rolname = \(role.name)")
                if found.isEmpty && existing { throw PostgresAdministrationError.roleMissing(role.name) }
                if !found.isEmpty && !existing { throw PostgresAdministrationError.roleExists(role.name) }
                var statements: [String] = []
                if found.isEmpty {
                    // The verifier is ASCII letters, digits and `+/=$:-` only, so it is safe as a literal.
                    let passwordClause = verifier.map { " PASSWORD '\($0)'" } ?? ""
                    statements.append("CREATE ROLE \(role.quoted) LOGIN\(passwordClause)")
                }
                statements +=
                    server
                    ? ["GRANT \(serverGroup) TO \(role.quoted)"]
                    : enrolling(role, database: database) + [serveEveryRunner]
                try await session.execute(statements)
                return AddRunnerReport(
                    role: role.name, database: database, created: found.isEmpty,
                    setPassword: found.isEmpty && verifier != nil)
            }
        }
    }

    /// Counts of what the role connected can read, and the schema version: `runnect db`.
    ///
    /// - Throws: ``PostgresAdministrationError/notInitialized(database:)``,
    ///   `StoreError.newerSchema(found:supported:)`.
    public static func summary(_ url: PostgresURL) async throws -> StoreSummary {
        try await PostgresSession.with(url) { session in
            let version = try await PostgresSchema.checkedVersion(session)
            guard version > 0 else {
                throw PostgresAdministrationError.notInitialized(database: try await currentDatabase(session))
            }
            let rows = try await session.query(
                """
                SELECT (SELECT count(*) FROM course), (SELECT count(*) FROM course WHERE is_uploaded),
                       (SELECT count(DISTINCT owner) FROM course), (SELECT count(*) FROM scrap)
                """)
            let (courses, shared, owners, scraps) = try rows[0].decode((Int, Int, Int, Int).self)
            return StoreSummary(
                path: url.description, schemaVersion: version, supportedSchemaVersion: PostgresSchema.supportedVersion,
                courses: courses, sharedCourses: shared, owners: owners, scraps: scraps)
        }
    }

    // MARK: - Roles

    /// The group of the roles servers connect as: every runner's role is granted to it, and it
    /// inherits none of their privileges (`NOINHERIT`), so a member can only `SET ROLE` to a
    /// runner.
    static let serverGroup = "runnect_server"

    /// What makes an existing login role a runner of the database: a member of
    /// `runnect_runner`, allowed to connect. Run ``serveEveryRunner`` after it, so that servers
    /// may act as it.
    static func enrolling(_ role: RoleName, database: String) -> [String] {
        [
            "GRANT \(PostgresSchema.runnerGroup) TO \(role.quoted)",
            "GRANT CONNECT ON DATABASE \(RoleName.quote(database)) TO \(role.quoted)",
        ]
    }

    /// What a role may not hold for a server to act as it: a server that could `SET ROLE` to a
    /// superuser, or to a role that bypasses row-level security, creates roles or replicates,
    /// would hold every runner's rows (an administrator made a runner by `db copy
    /// --existing-roles`, say).
    static let beyondARunner = "(r.rolsuper OR r.rolbypassrls OR r.rolcreaterole OR r.rolreplication)"

    /// Grants `runnect_server` every runner it was not granted (runners enrolled before servers
    /// acted for them, or just now), except a role ``beyondARunner``; and takes back such a role
    /// where an earlier build granted it.
    static let serveEveryRunner = """
        DO $$ DECLARE runner text; BEGIN
            FOR runner IN SELECT r.rolname FROM pg_auth_members a
                JOIN pg_roles g ON g.oid = a.roleid JOIN pg_roles r ON r.oid = a.member
                WHERE g.rolname = '\(PostgresSchema.runnerGroup)' AND NOT \(beyondARunner)
                  AND NOT EXISTS (SELECT 1 FROM pg_auth_members s JOIN pg_roles sg ON sg.oid = s.member
                                  WHERE s.roleid = r.oid AND sg.rolname = '\(serverGroup)')
            LOOP
                EXECUTE format('GRANT %I TO \(serverGroup)', runner);
            END LOOP;
            FOR runner IN SELECT r.rolname FROM pg_auth_members s
                JOIN pg_roles sg ON sg.oid = s.member JOIN pg_roles r ON r.oid = s.roleid
                WHERE sg.rolname = '\(serverGroup)' AND \(beyondARunner)
            LOOP
                EXECUTE format('REVOKE %I FROM \(serverGroup)', runner);
            END LOOP;
        END $$
        """

    // MARK: - Helpers

    private static func requireAdministrator(_ session: PostgresSession) async throws {
        let rows = try await session.query(
            "SELECT current_user::text, rolsuper OR rolcreaterole FROM pg_roles WHERE rolname = current_user")
        guard let row = rows.first else { throw StoreError.database("the connected role is not in pg_roles") }
        let (role, isAdministrator) = try row.decode((String, Bool).self)
        guard isAdministrator else { throw PostgresAdministrationError.notAdministrator(role: role) }
    }

    private static func currentDatabase(_ session: PostgresSession) async throws -> String {
        try await session.query("SELECT current_database()::text")[0].decode(String.self)
    }

    private static func exists(_ session: PostgresSession, _ query: PostgresQuery) async throws -> Bool {
        try await !session.query(query).isEmpty
    }
}
