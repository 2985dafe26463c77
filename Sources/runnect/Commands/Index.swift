import ArgumentParser
import Foundation
import RunnectSite
import RunnectStore

extension Runnect {
    /// `runnect index`: the discovery index, a static site of the shared courses.
    struct Index: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export the shared courses (all with --all) as a static discovery site.",
            discussion: """
                Writes index.html (course cards, sorting, Korean-aware search; works from file:// \
                and any static server, no network), courses.json and courses.js (the course list), \
                courses.geojson (a FeatureCollection) and courses/<id>.svg and courses/<id>.geojson. \
                Re-running updates the folder in place: unchanged files are left alone, files of \
                courses no longer listed are removed. Only files runnect index wrote (listed in \
                .runnect-index.json) are ever replaced or removed; another file in the way stops the \
                export before anything is written (exit 73). A progress bar is drawn on a terminal.
                """)

        @Argument(help: ArgumentHelp("The output folder (created when missing).", valueName: "outdir"))
        var folder: String

        @Flag(help: "Every course of the store, private ones included (default: shared courses only).")
        var all = false

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let summary = try await store.withStore { courses in
                var progress: ProgressBar?
                defer { progress?.clear() }
                do {
                    return try await DiscoveryIndexExporter(store: courses, scope: all ? .all : .shared)
                        .export(to: folder) { done, total in
                            if progress == nil { progress = ProgressBar(total: total, unit: "courses") }
                            progress?.update(done: done, detail: "")
                        }
                } catch let error as IndexExportError {
                    progress?.clear()
                    Diagnostics.error("\(error)")
                    throw ExitStatus.cannotCreate
                }
            }
            if store.json {
                try JSONLine.print(summary)
            } else {
                let kind = all ? "" : "shared "
                print(
                    "\(summary.courses) \(kind)course\(summary.courses == 1 ? "" : "s") → \(summary.folder.forTerminal): "
                        + "\(summary.filesWritten) files written, \(summary.filesUnchanged) unchanged, "
                        + "\(summary.filesRemoved) removed")
                print(
                    "open \(URL(fileURLWithPath: summary.folder).appendingPathComponent("index.html").absoluteString)")
            }
        }
    }
}
