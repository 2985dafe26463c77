import ArgumentParser
import RunnectStore

extension Runnect {
    /// `runnect delete ID…` (owner only; all or nothing).
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete your courses (all of them or, if one is not yours or not there, none).")

        @Argument(help: "Course ids.") var ids: [Int64]
        @Flag(help: "Delete your records of these courses with them (otherwise a course with records is kept).")
        var withRecords = false
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await store.withStore { try await $0.delete(ids: ids, withRecords: withRecords) }
            if !store.json { print("deleted " + ids.map { "#\($0)" }.joined(separator: " ")) }
        }
    }
}
