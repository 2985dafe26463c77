import ArgumentParser

extension Runnect {
    /// `runnect db`: the course database; its summary unless a subcommand is named.
    struct Database: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "db",
            abstract: "The course database: its summary, and setting up a PostgreSQL one.",
            subcommands: [DatabaseSummary.self, DatabaseInit.self, DatabaseAddUser.self],
            defaultSubcommand: DatabaseSummary.self)
    }
}
