import ArgumentParser
import RunnectKit

@main
struct Runnect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runnect",
        abstract: "GPS running routes: stats, course store, exports.",
        discussion: """
            Exit codes: 0 success · 1 the course store refused (not your course, not shared, \
            a newer database…; nothing changed) · 64 usage error · 65 an input could not be read \
            as a course (the other inputs are still processed) · 66 an input could not be opened · 73 an output file could not be written.
            """,
        version: "0.1.0",
        subcommands: [
            Stats.self, Import.self, Draw.self, List.self, Show.self, Search.self, Rename.self,
            Delete.self, Upload.self, Unupload.self, Scrap.self, Unscrap.self, Database.self,
            Export.self, Index.self, Records.self, Record.self,
        ])
}
