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
                untouched.
                """)

        @OptionGroup var database: PostgresOptions

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
            #else
                _ = try database.location()
            #endif
        }
    }
}
