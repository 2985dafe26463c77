import ArgumentParser

extension Runnect {
    /// `runnect db`: the course database; its summary unless a subcommand is named.
    struct Database: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "db",
            abstract:
                "The course database: its summary, setting up a PostgreSQL one, copying one into another, upkeep, its integrity check.",
            subcommands: [
                DatabaseSummary.self, DatabaseInit.self, DatabaseAddUser.self, DatabaseCopy.self, DatabaseOptimize.self,
                DatabaseCheck.self,
            ],
            defaultSubcommand: DatabaseSummary.self)
    }
}
