import ArgumentParser
import Foundation
import RunnectStore

extension Runnect {
    /// `runnect db optimize`: upkeep of a store that imports have grown.
    struct DatabaseOptimize: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "optimize",
            abstract: "Tidy the course database after bulk imports, so that searches stay fast.",
            discussion: """
                SQLite: merges the search index into one segment. PostgreSQL (as the tables' owner, \
                who ran `db init`): rebuilds the near-me box index, which imports grow one piece at a \
                time, and vacuums and analyses the tables; runners go on reading and writing \
                meanwhile. Safe to run at any time, and again.
                """)

        @OptionGroup var store: StoreOptions

        func run() async throws {
            // Each step shown as it finishes: a rebuild at a million courses takes about a minute.
            let json = store.json
            let show: @Sendable (OptimizeReport.Step) -> Void = { step in
                guard !json else { return }
                print("  \(step.name)\(Self.change(step)) in \(String(format: "%.2f", step.seconds)) s")
            }
            let report = try await store.withStore { opened in
                if !json { print("Database  \(opened.path)") }
                return try await opened.optimize(stepDone: show)
            }
            if json { try JSONLine.print(report) }
        }

        /// `: 12 → 1 segments`, `: 93.1 → 71.4 MB`, or nothing.
        static func change(_ step: OptimizeReport.Step) -> String {
            guard let after = step.after else { return "" }
            if step.unit == "bytes" {
                let megabytes = { (bytes: Int) in String(format: "%.1f", Double(bytes) / 1_048_576) }
                return ": \(step.before.map(megabytes) ?? "none") → \(megabytes(after)) MB"
            }
            return ": \(step.before.map(String.init) ?? "none") → \(after) \(step.unit ?? "")"
        }
    }
}
