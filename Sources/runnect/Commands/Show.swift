import ArgumentParser
import RunnectStore

extension Runnect {
    /// `runnect show ID`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one course.")

        @Argument(help: "The course's id.") var id: Int64
        @OptionGroup var units: UnitsOptions
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let (course, records) = try await store.withStore {
                await (try $0.course(id: id), try $0.recordFigures(course: id))
            }
            if store.json {
                var report = CourseReport(course)
                report.records = records
                print(try report.jsonLine())
            } else {
                print(CourseText.detail(course, unit: units.unit))
                // Only with records: a course without keeps the lines it always had.
                if records.count > 0 {
                    print("  " + "Records".padding(toLength: 13, withPad: " ", startingAt: 0) + "\(records.count)")
                }
                if let best = records.bestCourseTimeSeconds {
                    print(
                        "  " + "Your best".padding(toLength: 13, withPad: " ", startingAt: 0) + RecordText.clock(best))
                }
            }
        }
    }
}
