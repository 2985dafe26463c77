import ArgumentParser
import RunnectStore

extension Runnect {
    /// `runnect rename ID --title T` (owner only).
    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename one of your courses.")

        @Argument(help: "The course's id.") var id: Int64
        @Option(help: "The new title (1–40 characters).") var title: String
        @OptionGroup var units: UnitsOptions
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await CourseOutput.print(
                [store.withStore { try await $0.rename(id: id, title: title) }], json: store.json, unit: units.unit)
        }
    }
}
