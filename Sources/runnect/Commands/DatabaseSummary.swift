import ArgumentParser
import Foundation
import RunnectStore

extension Runnect {
    /// `runnect db [summary]`: where the course database is, its schema version and what it holds.
    struct DatabaseSummary: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "summary",
            abstract: "Show the course database: its path, schema version and counts.",
            discussion: """
                On PostgreSQL the counts are of what the role connected can read: its own courses \
                and the shared ones, its own scraps.
                """)

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let summary = try await store.withStore { try await $0.summary() }
            if store.json {
                try JSONLine.print(summary)
            } else {
                print(
                    """
                    Database  \(summary.path)
                    Schema    version \(summary.schemaVersion) (this build: \(summary.supportedSchemaVersion))
                    Courses   \(summary.courses), \(summary.sharedCourses) shared, by \(summary.owners) user(s)
                    Scraps    \(summary.scraps)
                    """)
            }
        }
    }
}
