import ArgumentParser

#if PostgreSQL
    import RunnectPostgres
#endif

extension Runnect {
    /// `runnect db init --db URL`: sets up a PostgreSQL store, as an administrator.
    struct DatabaseInit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Set up a PostgreSQL database as a course store (as an administrator role).",
            discussion: """
                Creates the PostGIS extension, the runnect_runner group role, the tables, their \
                row-level security policies and grants, and takes the right to connect from PUBLIC \
                (`db add-user` gives it to each runner). Running it again changes nothing but \
                migrations a newer runnect brings; a database from a newer runnect is refused \
                untouched. With --server-role NAME it also makes the login role `runnect serve` \
                connects as (as `db add-user NAME --server`: a member of runnect_server, no \
                SUPERUSER or CREATEROLE), which acts for each runner and signs app users up \
                through the store's own function; its password is asked on the terminal, or read \
                from standard input with --password-stdin.
                """)

        @OptionGroup var database: PostgresOptions

        @Option(help: ArgumentHelp("Also make the login role a server connects as.", valueName: "name"))
        var serverRole: String?

        @Flag(help: "Read the server role's password from the first line of standard input.")
        var passwordStdin = false

        @Flag(help: "Make the server role without a password (peer or certificate authentication).")
        var noPassword = false

        func run() async throws {
            #if PostgreSQL
                let url = try database.url()
                let report = try await StoreRefusal.reported { try await PostgresAdministration.initialize(url) }
                let applied =
                    report.appliedVersions.isEmpty
                    ? "up to date"
                    : "migrated to it now (\(report.appliedVersions.map(String.init).joined(separator: ", ")))"
                print(
                    """
                    Database  \(url)
                    Schema    version \(report.schemaVersion), \(applied)
                    PostGIS   \(report.createdExtension ? "extension created" : "extension present")
                    Runners   add one with `runnect db add-user NAME --db URL`
                    """)
                guard let serverRole else { return }
                let role = try await StoreRefusal.reported { try RoleName(serverRole) }
                let password =
                    noPassword ? nil : try PasswordInput.read(for: role.name, fromStandardInput: passwordStdin)
                let server = try await StoreRefusal.reported {
                    try await PostgresAdministration.addRunner(
                        role, password: password, existing: false, server: true, at: url)
                }
                print(
                    "Server    \(server.created ? "created login role" : "made existing role") \(server.role): it acts for each runner"
                )
            #else
                _ = try database.location()
            #endif
        }
    }
}
