import ArgumentParser
import RunnectStore

extension Runnect {
    /// `runnect scrap ID`: bookmark a shared course.
    struct Scrap: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Scrap (bookmark) a shared course.")

        @Argument(help: "The course's id.") var id: Int64
        @OptionGroup var units: UnitsOptions
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await CourseOutput.print(
                [store.withStore { try await $0.scrap(id: id) }], json: store.json, unit: units.unit)
        }
    }

    /// `runnect unscrap ID`.
    struct Unscrap: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove your scrap of a course.")

        @Argument(help: "The course's id.") var id: Int64
        @OptionGroup var units: UnitsOptions
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await CourseOutput.print(
                [store.withStore { try await $0.unscrap(id: id) }], json: store.json, unit: units.unit)
        }
    }
}
