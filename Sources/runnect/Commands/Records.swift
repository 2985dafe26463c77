import ArgumentParser
import RunnectStore

extension RecordSort: ExpressibleByArgument {}

extension Runnect {
    /// `runnect records`: the user's records, newest first, or one course's as a leaderboard.
    struct Records: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List your records (runs kept on the courses they followed), newest first.",
            discussion: """
                With --course, the records of that course, fastest course time first (your \\
                leaderboard), headed by your attempts, the most recent, your best of all time and \\
                of the last 365 days, and the trend of your last five attempts.
                """)

        @Option(help: ArgumentHelp("Only the records of this course.", valueName: "id"))
        var course: Int64?

        @Option(help: "date (newest first; the default without --course) or time (fastest course time first).")
        var sort: RecordSort?

        @OptionGroup var pages: PageOptions

        @OptionGroup var units: UnitsOptions

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let sort = sort ?? (course == nil ? .date : .time)
            try await store.withStore { records in
                let page = try await records.records(
                    course: course, sort: sort, page: pages.page)
                if !store.json, let course {
                    await print(
                        RecordText.summary(
                            try records.recordSummary(course: course), course: try records.course(id: course)))
                }
                for record in page {
                    print(store.json ? try RecordReport(record).jsonLine() : RecordText.line(record, unit: units.unit))
                }
            }
        }
    }

    /// `runnect record show|rename|delete`.
    struct Record: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show, rename or delete one of your records.",
            subcommands: [ShowRecord.self, RenameRecord.self, DeleteRecord.self])
    }

    /// `runnect record show R`.
    struct ShowRecord: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one of your records.")

        @Argument(help: ArgumentHelp("The record: record:R as records print, or R.", valueName: "record:R"))
        var id: RecordID
        @OptionGroup var units: UnitsOptions
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let record = try await store.withStore { try await $0.record(id: id.value) }
            print(store.json ? try RecordReport(record).jsonLine() : RecordText.line(record, unit: units.unit))
        }
    }

    /// `runnect record rename R TITLE`.
    struct RenameRecord: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename one of your records.")

        @Argument(help: ArgumentHelp("The record: record:R as records print, or R.", valueName: "record:R"))
        var id: RecordID
        @Argument(help: "The new title (1–40 characters).") var title: String
        @OptionGroup var units: UnitsOptions
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let record = try await store.withStore { try await $0.renameRecord(id: id.value, title: title) }
            print(store.json ? try RecordReport(record).jsonLine() : RecordText.line(record, unit: units.unit))
        }
    }

    /// `runnect record delete R…`.
    struct DeleteRecord: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete your records (all of them or, if one is not yours, none).")

        @Argument(help: ArgumentHelp("The records: record:R as records print, or R.", valueName: "record:R"))
        var ids: [RecordID]
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await store.withStore { try await $0.deleteRecords(ids: ids.map(\.value)) }
            if !store.json { print("deleted " + ids.map { RecordID.label($0.value) }.joined(separator: " ")) }
        }
    }
}
