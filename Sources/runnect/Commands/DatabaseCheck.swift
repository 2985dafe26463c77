import ArgumentParser
import Foundation
import RunnectStore

extension Runnect {
    /// `runnect db check`: the store's integrity check, and its images with `--images`.
    struct DatabaseCheck: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check the course database's integrity, and that every course image it names is in --images.",
            discussion: """
                SQLite: integrity_check, foreign_key_check, the spatial indexes, the search index \
                (FTS5 integrity-check and its grams against the entries' text), one search entry a \
                course, the scrap and record counters, every record's course. PostgreSQL, as the \
                tables' owner: the search entries' tokens, initials and copied columns, path pieces, \
                the counters, every record's course, and amcheck's bt_index_check where installed. \
                Safe beside a running server. Prints ok and exits 0 when clean; otherwise each \
                problem is a line on standard error and the exit code is 65.
                """)

        @OptionGroup var store: StoreOptions

        @Option(
            help: ArgumentHelp(
                "The server's images folder: every image a course names must be a file in it.", valueName: "dir"))
        var images: String?

        func run() async throws {
            if let images {
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: images, isDirectory: &isFolder), isFolder.boolValue else {
                    Diagnostics.error(
                        "--images \(images): no such folder; name the folder `runnect serve --images` uses")
                    throw ExitStatus.noInput
                }
            }
            let report = try await store.withStore { try await $0.check(imagesFolder: images) }
            if store.json {
                try JSONLine.print(report)
            } else {
                print("Database  \(report.path)")
                print("Schema    version \(report.schemaVersion)")
                let width = report.checks.map(\.name.count).max() ?? 0
                for check in report.checks {
                    let name = check.name.padding(toLength: width, withPad: " ", startingAt: 0)
                    print("  \(name)  \(Self.outcome(check))")
                }
            }
            for line in report.problemLines { Diagnostics.error(line) }
            guard report.isClean else {
                if !store.json { print("\(report.checks.reduce(0) { $0 + $1.problemCount }) problem(s)") }
                throw ExitStatus.dataError
            }
            if !store.json { print("ok") }
        }

        /// `ok (1,204 examined)`, `3 problem(s)`, `skipped: why`.
        static func outcome(_ check: StoreCheckReport.Check) -> String {
            if let skipped = check.skipped { return "skipped: \(skipped)" }
            guard check.passed else { return "\(check.problemCount) problem(s)" }
            return check.examined.map { "ok (\($0) examined)" } ?? "ok"
        }
    }
}
