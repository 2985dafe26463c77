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

        @Option(help: ArgumentHelp("Departure address \"region city town [detail…]\".", valueName: "address"))
        var departure: String?

        @Option(help: ArgumentHelp("The departure's place name (잠실종합운동장).", valueName: "name"))
        var departureName: String?

        @OptionGroup var store: StoreOptions

        func validate() throws {
            if let departure {
                do {
                    _ = try Departure(address: departure, name: departureName)
                } catch {
                    throw ValidationError("--departure: \(error)")
                }
            }
        }

        static let extensions: Set<String> = ["gpx", "json", "geojson"]

        func run() throws {
            try store.withStore { try importAll(into: $0) }
        }

        private func importAll(into courses: CourseStore) throws {
            let place = try departure.map { try Departure(address: $0, name: departureName) }
            let files = try Self.collect(paths)
            let progress = ProgressBar(total: files.count)
            var imported: [Course] = []
            var skipped = 0
            var failures: [(String, Error)] = []
            for (index, file) in files.enumerated() {
                do {
                    let course = try courses.importFile(path: file, title: title, description: description,
                                                        departure: place)
                    imported.append(course)
                    if store.json { print(try CourseReport(course).jsonLine()) }
                } catch StoreError.duplicate(let existing) {
                    skipped += 1
                    if !store.json { Diagnostics.note("\(file): already imported as #\(existing), skipped") }
                } catch {
                    failures.append((file, error))
                }
                progress.update(done: index + 1, detail: "\(imported.count) courses")
            }
            progress.finish()
            if !store.json {
                for course in imported { print("imported " + CourseText.line(course)) }
                print("\(imported.count) imported, \(skipped) already there, \(failures.count) failed")
            }
            for (file, error) in failures { Diagnostics.error("\(file): \(error)") }
            if !failures.isEmpty { throw ExitStatus.dataError }
        }

        /// The files named, and the supported files found recursively in the folders named.
        static func collect(_ paths: [String]) throws -> [String] {
            var files: [String] = []
            for path in paths {
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
