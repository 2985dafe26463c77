import ArgumentParser
import RunnectStore

extension Runnect {
    /// `runnect upload ID --title T --description D`: share a course.
    struct Upload: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Share one of your courses with a title (1–40 characters) and a description.")

        @Argument(help: "The course's id.") var id: Int64
        @Option(help: "Title shown to other runners (1–40 characters).") var title: String
        @Option(help: "What the course is like.") var description: String
        @OptionGroup var units: UnitsOptions
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let course = try await store.withStore {
                try await $0.upload(id: id, title: title, description: description)
            }
            try CourseOutput.print([course], json: store.json, unit: units.unit)
        }
    }

    /// `runnect unupload ID`: private again, scraps cleared.
    struct Unupload: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make one of your shared courses private again (its scraps are cleared).")

        @Argument(help: "The course's id.") var id: Int64
        @OptionGroup var units: UnitsOptions
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await CourseOutput.print(
                [store.withStore { try await $0.unupload(id: id) }], json: store.json, unit: units.unit)
        }
    }
}
