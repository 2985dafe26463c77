import ArgumentParser
import Foundation
import RunnectKit
import RunnectStore

extension Runnect {
    /// `runnect import`: files and folders into the course store.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import GPX files and tapped-point courses (files or whole folders) into the store.",
            discussion: """
                Folders are searched recursively for .gpx, .json and .geojson files. Each file is \
                imported atomically; content already imported is recognised by its SHA-256 and \
                skipped. Failures are listed at the end and make the exit code 65. A progress bar \
                is drawn on a terminal, never on a pipe.
                """)

        @Argument(help: "Files or folders.")
        var paths: [String]

        @Option(help: "Title for the imported courses (default: the file's own name).")
        var title: String?

        @Option(help: "Description for the imported courses.")
        var description: String?

        @OptionGroup var departure: DepartureOptions

        @OptionGroup var store: StoreOptions

        @Option(help: ArgumentHelp("Threads that read files while one thread writes (default: the processors, at most 8).",
                                   valueName: "n"))
        var jobs: Int = BulkImporter.defaultJobs

        static let extensions: Set<String> = ["gpx", "json", "geojson"]

        func validate() throws {
            guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        }

        func run() throws {
            try store.withStore { try importAll(into: $0) }
        }

        private func importAll(into courses: CourseStore) throws {
            let place = try departure.place()
            let items = try Self.collect(paths).map {
                ImportItem(path: $0, title: title, description: description, departure: place)
            }
            let progress = ProgressBar(total: items.count)
            var summary = ImportSummary()
            var failures: [(String, any Error)] = []
            try BulkImporter(store: courses, jobs: jobs).run(items) { outcomes in
                progress.clear()
                for outcome in outcomes {
                    summary.add(outcome)
                    switch outcome {
                    case .imported(_, let course):
                        print(store.json ? (try? CourseReport(course).jsonLine()) ?? "" : "imported " + CourseText.line(course))
                    case .skipped(let item, let existing):
                        if !store.json { Diagnostics.note("\(item.path): already imported as #\(existing), skipped") }
                    case .failed(let item, let error):
                        failures.append((item.path, error))
                    }
                }
                progress.update(done: summary.total, detail: "\(summary.imported) courses")
            }
            progress.clear()
            if !store.json {
                print("\(summary.imported) imported, \(summary.skipped) already there, \(summary.failed) failed")
            }
            for (file, error) in failures { Diagnostics.error("\(file): \(error)") }
            if !failures.isEmpty { throw ExitStatus.dataError }
        }

        /// The files named, and the supported files found recursively in the folders named.
        static func collect(_ paths: [String]) throws -> [String] {
            var files: [String] = []
            for path in paths {
                if path == "-" {
                    files.append(path)
                    continue
                }
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                    Diagnostics.error("\(path): no such file or folder")
                    throw ExitStatus.noInput
                }
                guard isDirectory.boolValue else {
                    files.append(path)
                    continue
                }
                let enumerator = FileManager.default.enumerator(atPath: path)
                var found: [String] = []
                while let relative = enumerator?.nextObject() as? String {
                    let ext = (relative as NSString).pathExtension.lowercased()
                    if extensions.contains(ext) { found.append((path as NSString).appendingPathComponent(relative)) }
                }
                files += found.sorted()
            }
            return files
        }
    }
}
