import ArgumentParser
import RunnectStore

extension Runnect {
    /// `runnect show ID`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one course.")

        @Argument(help: "The course's id.") var id: Int64
        @OptionGroup var store: StoreOptions

        func run() throws {
            let course = try store.withStore { try $0.course(id: id) }
            if store.json {
                print(try CourseReport(course).jsonLine())
            } else {
                print(CourseText.detail(course))
            }
        }
    }
}
