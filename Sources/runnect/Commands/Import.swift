import ArgumentParser
import Foundation
import RunnectKit
import RunnectStore

extension Runnect {
    /// `runnect import`: files and folders into the course store.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Import GPX, TCX, FIT and tapped-point courses (files, folders or a Strava export) into the store.",
            discussion: """
                Folders are searched recursively for .gpx, .tcx, .fit, .json and .geojson files, and \
                those gzipped (.gpx.gz, …); regular files only (a FIFO or device found there is \
                skipped with a note; one named on the command line is read). A folder named on the \
                command line may be a symbolic link; links to folders inside it are not followed. \
                A folder holding activities.csv is a Strava bulk export: \
                the files its Filename column names are imported with the activity's name and \
                description, and the counts are given per file format; a row whose Filename leads \
                outside the export folder is refused. Each file is imported \
                atomically; content already imported is recognised by its SHA-256 and skipped. \
                Failures are listed at the end and make the exit code 65 (a track whose points lie \
                at fewer than 2 distinct positions is one: it has no path). What a file's reader \
                notices, times going back say, is a warning naming the file, as in `runnect stats`; \
                the course is stored as read. A progress bar is drawn on a terminal, never on a pipe.

                A run (a GPX, TCX or FIT track with a time at every point, the times advancing) is \
                kept as a record of the course it followed: the best match among your courses, your \
                scraps and shared courses, else a new private course made from the run. A run \
                follows a course when --match-coverage of the course's length lies within \
                --match-distance of the run, passed from start to finish in order (a warm-up before \
                and a cool-down after are allowed and not timed). Routes, tapped points and tracks \
                untimed or timed in part are courses only, as `runnect export` takes them.
                """)

        @Argument(help: "Files or folders.")
        var paths: [String]

        @Option(help: "Title for the imported courses (default: the file's own name).")
        var title: String?

        @Option(help: "Description for the imported courses.")
        var description: String?

        @OptionGroup var departure: DepartureOptions

        @Option(
            help: ArgumentHelp("Record runs on this course (refused when a run does not follow it).", valueName: "id"))
        var course: Int64?

        @Flag(help: "Record each run on a new course made from it, matching none.")
        var noMatch = false

        @Option(
            help: ArgumentHelp(
                "How near the run the course must lie, metres (default 30: watch GPS error plus a drawn course's offset).",
                valueName: "m"))
        var matchDistance: Double?

        @Option(
            help: ArgumentHelp(
                "Share of the course's length that must lie that near, 0–1 (default 0.9: a detour or a GPS dropout passes, half a course does not).",
                valueName: "f"))
        var matchCoverage: Double?

        @OptionGroup var units: UnitsOptions

        @OptionGroup var store: StoreOptions

        @Option(
            name: .customLong("jobs"),
            help: ArgumentHelp(
                "Threads that read files while one thread writes (default: the processors, at most 8).",
                valueName: "n"))
        var jobsGiven: Int?

        /// `--jobs`, else the processors (at most 8).
        var jobs: Int { jobsGiven ?? BulkImporter.defaultJobs }

        /// `--match-distance`, else 30 m.
        var matchDistanceMeters: Double { matchDistance ?? CourseMatchOptions.defaultMatchDistanceMeters }

        /// `--match-coverage`, else 0.9.
        var matchCoverageShare: Double { matchCoverage ?? CourseMatchOptions.defaultMinimumCoverage }

        func validate() throws {
            guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
            guard matchDistanceMeters > 0, matchDistanceMeters <= 1000 else {
                throw ValidationError("--match-distance must be more than 0 and at most 1000 metres")
            }
            guard matchCoverageShare > 0, matchCoverageShare <= 1 else {
                throw ValidationError("--match-coverage must be more than 0 and at most 1")
            }
            guard course == nil || !noMatch else { throw ValidationError("--course and --no-match exclude each other") }
        }

        func run() async throws {
            try await store.withStore(writing: true) { try await importAll(into: $0) }
        }

        private func importAll(into courses: CourseStore) async throws {
            let place = try departure.place()
            var items: [ImportItem] = []
            // Files of Strava exports, by kind (gpx, tcx.gz, …), for the counts per format.
            var stravaKinds: [String: String] = [:]
            var refusedRows: [ImportOutcome] = []
            for input in try Self.collect(paths) {
                switch input {
                case .file(let path):
                    items.append(ImportItem(path: path, title: title, description: description, departure: place))
                case .stravaExport(let export):
                    let recorded = export.recorded.count
                    Diagnostics.note(
                        "\(export.folder): Strava export, \(export.entries.count) activities, "
                            + "\(recorded) with a file, \(export.entries.count - recorded) without")
                    let (exportItems, refused) = export.importItems(departure: place)
                    for var item in exportItems {
                        if let title { item.title = title }
                        if let description { item.description = description }
                        stravaKinds[item.path] = StravaExport.fileKind(item.path)
                        items.append(item)
                    }
                    for outcome in refused { stravaKinds[outcome.item.path] = StravaExport.fileKind(outcome.item.path) }
                    refusedRows += refused
                }
            }
            var byKind: [String: ImportSummary] = [:]
            let progress = ProgressBar(total: items.count)
            var summary = ImportSummary()
            var failures: [(String, any Error)] = []
            // Rows of a Strava export whose file was refused count as failed, as files that fail to read.
            for outcome in refusedRows {
                summary.add(outcome)
                if let kind = stravaKinds[outcome.item.path] { byKind[kind, default: ImportSummary()].add(outcome) }
                if case .failed(_, let error) = outcome { failures.append(("", error)) }
            }
            var importer = BulkImporter(store: courses, jobs: jobs)
            importer.matching = RunMatching(
                link: course.map(RunMatching.Link.course) ?? (noMatch ? .newCourse : .bestMatch),
                options: CourseMatchOptions(
                    matchDistanceMeters: matchDistanceMeters, minimumCoverage: matchCoverageShare))
            var stopped: ImportStopped?
            do {
                try await importer.run(items) { outcomes in
                    progress.clear()
                    for outcome in outcomes {
                        summary.add(outcome)
                        if let kind = stravaKinds[outcome.item.path] {
                            byKind[kind, default: ImportSummary()].add(outcome)
                        }
                        switch outcome {
                        case .imported(_, let course):
                            print(
                                store.json
                                    ? (try? CourseReport(course).jsonLine()) ?? ""
                                    : "imported " + CourseText.line(course, unit: units.unit))
                        case .recorded(_, let recorded):
                            print(
                                store.json
                                    ? (try? RecordReport(recorded).jsonLine()) ?? ""
                                    : "recorded "
                                        + RecordText.line(
                                            recorded.record, personalBest: recorded.isPersonalBest, unit: units.unit))
                        case .skipped(let item, let existing):
                            if !store.json {
                                Diagnostics.note("\(item.path): already imported as #\(existing), skipped")
                            }
                        case .alreadyRecorded(let item, let existing):
                            if !store.json {
                                Diagnostics.note("\(item.path): already recorded as record:\(existing), skipped")
                            }
                        case .failed(let item, let error):
                            failures.append((item.path, error))
                        }
                    }
                    progress.update(done: summary.total, detail: "\(summary.imported) courses")
                } onWarnings: { item, warnings in
                    progress.clear()
                    for warning in warnings { Diagnostics.warning("\(item.path): \(warning)") }
                }
            } catch let error as ImportStopped {
                stopped = error
            }
            progress.clear()
            if !store.json {
                let runs = summary.recorded > 0 ? " (\(summary.recorded) as records of runs)" : ""
                print("\(summary.imported) imported\(runs), \(summary.skipped) already there, \(summary.failed) failed")
                let width = (byKind.keys.map(\.count).max() ?? 0) + 2
                for (kind, counts) in byKind.sorted(by: { $0.key < $1.key }) {
                    print(
                        "  " + kind.padding(toLength: width, withPad: " ", startingAt: 0)
                            + "\(counts.imported) imported, \(counts.skipped) already there, \(counts.failed) failed")
                }
            }
            // A refused Strava row's error names activities.csv and its line already.
            for (file, error) in failures { Diagnostics.error(file.isEmpty ? "\(error)" : "\(file): \(error)") }
            if let stopped {
                Diagnostics.error("\(stopped)")
                for file in stopped.notImported { Diagnostics.error("\(file): not imported") }
                throw ExitCode.failure
            }
            if !failures.isEmpty { throw ExitStatus.dataError }
        }

        /// What the paths named hold (``ImportPath``: files, Strava exports, the supported files
        /// of folders), in order; what a folder's walk skipped is noted as it is found.
        static func collect(_ paths: [String]) throws -> [ImportPath.Source] {
            var sources: [ImportPath.Source] = []
            for path in paths {
                let found: ImportPath
                do {
                    found = try ImportPath(path)
                } catch {
                    Diagnostics.error("\(error)")
                    switch error {
                    case ImportPathError.notFound, StravaExportError.cannotRead: throw ExitStatus.noInput
                    default: throw ExitStatus.dataError
                    }
                }
                for skipped in found.skipped { Diagnostics.note("\(skipped)") }
                sources += found.sources
            }
            return sources
        }
    }
}
