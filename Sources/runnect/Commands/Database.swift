import ArgumentParser
import Foundation
import RunnectStore

extension Runnect {
    /// `runnect db`: where the course database is, its schema version and what it holds.
    struct Database: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "db",
            abstract: "Show the course database: its path, schema version and counts.")

        @OptionGroup var store: StoreOptions

        func run() throws {
            let summary = try store.withStore { try $0.summary() }
            if store.json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(summary), as: UTF8.self))
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
