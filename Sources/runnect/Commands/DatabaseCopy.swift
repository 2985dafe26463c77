import ArgumentParser
import Foundation
import RunnectStore

#if canImport(Glibc)
    import Glibc
#endif

extension Runnect {
    /// `runnect db copy FROM TO`: every course, record, scrap and user of one store into another.
    struct DatabaseCopy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "copy",
            abstract: "Copy every course, record, scrap and user from one store to another (SQLite ⇄ PostgreSQL).",
            discussion: """
                FROM and TO are each a SQLite file or a postgresql:// URL. Ids, owners, dates, sharing \
                and content hashes are kept; running the copy again copies only what is missing, so a \
                copy cut short is completed by running it again. On PostgreSQL connect as an \
                administrator (the role that ran `runnect db init`): it reads and writes every runner's \
                rows, and makes the source's users runners' login roles (without a password; set one \
                with ALTER ROLE, or use `runnect db add-user NAME --existing`). Before writing anything \
                it refuses owners whose names differ from their trimmed NFC form, and owners naming \
                existing roles that are not runners (postgres, an administrator) unless \
                --existing-roles is given.
                """)

        @Argument(help: ArgumentHelp("The store to copy from (only read; it must exist).", valueName: "from"))
        var from: String

        @Argument(
            help: ArgumentHelp(
                "The store to copy into (a new SQLite file is made, in an existing folder).", valueName: "to"))
        var to: String

        @Flag(help: "Print what was copied as one JSON object.")
        var json = false

        @Flag(
            help: """
                On PostgreSQL, let the source's owners name existing roles that are not runners: each \
                becomes a runner, its password and attributes unchanged (as `db add-user --existing`).
                """)
        var existingRoles = false

        func run() async throws {
            guard from != to else { throw ValidationError("FROM and TO are the same store.") }
            let summary: CopySummary = try await StoreOptions.withStores(at: [from, to]) { stores in
                // Made at the first step, which brings the total the copy counted.
                var bar: ProgressBar?
                defer { bar?.clear() }
                return try await stores[1].copy(from: stores[0], enrollingExistingRoles: existingRoles) { step in
                    if bar == nil { bar = ProgressBar(total: step.total, unit: "courses") }
                    bar?.update(done: step.done, detail: "")
                }
            }
            for role in summary.enrolledRoles {
                Diagnostics.note("made existing role \(role) a runner, unchanged otherwise")
            }
            if json {
                try JSONLine.print(summary)
            } else {
                print(
                    """
                    copied \(summary.courses) course(s), \(summary.records) record(s), \(summary.scraps) scrap(s) \
                    of \(summary.users) user(s); already there: \(summary.coursesPresent) course(s), \
                    \(summary.recordsPresent) record(s), \(summary.scrapsPresent) scrap(s)
                    """)
            }
        }
    }
}
