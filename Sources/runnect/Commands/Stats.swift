import ArgumentParser
import Foundation
import RunnectKit

extension Runnect {
    /// `runnect stats`: figures for recorded runs and drawn courses.
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Distance, time, pace, splits and elevation of GPS tracks and tapped courses.",
            discussion: """
                Reads GPX 1.0/1.1, TCX and FIT files (gzipped too), tapped points ("lat,lon lat,lon …", a \
                JSON list, or GeoJSON), detected from the content. A TCX file with several activities \
                gives one report per activity. FILE may be - for standard input; with no FILE and no \
                --points, standard input is read. Distances are WGS84 geodesics (GeographicLib).

                With --json, one JSON object per input per line (NDJSON). A file that cannot be read \
                is reported on standard error and the others are still processed.
                """)

        @Argument(help: "GPX, TCX, FIT or tapped-points files (or .gz of them); - for standard input.")
        var files: [String] = []

        @Option(
            name: .customLong("points"),
            help: ArgumentHelp(
                "A course drawn by tapping: \"lat,lon lat,lon …\".", valueName: "taps"))
        var pointsText: String?

        @Option(help: ArgumentHelp("A file of tapped points (text, JSON or GeoJSON).", valueName: "file"))
        var pointsFile: String?

        @Flag(help: "One JSON object per input per line.")
        var json = false

        @Flag(help: "Per-kilometre splits.")
        var splits = false

        @Flag(name: .customLong("segments"), help: "Figures for every segment too.")
        var perSegment = false

        @OptionGroup var analysis: AnalysisOptions

        @OptionGroup var units: UnitsOptions

        @Option(
            name: .customLong("jobs"),
            help: ArgumentHelp(
                "Files read at once, printed in input order (default: the processors; at most 1,024).",
                valueName: "n"))
        var jobsGiven: Int?

        /// `--jobs`, else the processors.
        var jobs: Int { jobsGiven ?? ProcessInfo.processInfo.activeProcessorCount }

        /// One input: tapped points typed, or a file (- for standard input).
        enum Input: Sendable {
            case points(String)
            case file(String)

            var label: String {
                switch self {
                case .points: return "--points"
                case .file(let path): return path
                }
            }

            /// A file may hold several activities (TCX): one report each. `parallel`: a large GPX
            /// file may be read on two threads (``ActivityReader/readAll(path:parallel:)``).
            func read(parallel: Bool) throws -> [Activity] {
                switch self {
                case .points(let text): return [try TappedPointsReader.read(text: text)]
                case .file(let path): return try ActivityReader.readAll(path: path, parallel: parallel)
                }
            }
        }

        /// What one input prints, kept until the inputs before it are printed.
        struct Report: Sendable {
            enum Line: Sendable {
                case error(String)
                case warning(String)
            }
            var diagnostics: [Line] = []
            /// Text reports (separated by a blank line) or JSON lines.
            var outputs: [String] = []
            var failure: ExitCode?
        }

        func validate() throws {
            if pointsText != nil && pointsFile != nil {
                throw ValidationError("Give either --points or --points-file, not both.")
            }
            guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
            guard jobs <= Self.maximumJobs else {
                throw ValidationError("--jobs must be at most \(Self.maximumJobs)")
            }
        }

        /// More threads than this only wait for a core (and `--jobs` near `Int.max` overflowed
        /// the read-ahead count, a crash).
        static let maximumJobs = 1_024

        func run() throws {
            var inputs: [Input] = []
            if let pointsText { inputs.append(.points(pointsText)) }
            if let pointsFile { inputs.append(.file(pointsFile)) }
            inputs += files.map(Input.file)
            if inputs.isEmpty { inputs.append(.file("-")) }

            var failure: ExitCode?
            var printedText = false
            // One large GPX file is read on two cores when the files read at once leave a core idle.
            let parallel = min(jobs, inputs.count) < ProcessInfo.processInfo.activeProcessorCount
            // Workers read up to 4 inputs per job ahead of the one printed: memory stays that of a few files.
            let read: @Sendable (Input) -> Report = { report(for: $0, parallel: parallel) }
            ParallelMap.forEachInOrder(inputs, jobs: jobs, lookahead: jobs * 4, read) { report in
                for line in report.diagnostics {
                    switch line {
                    case .error(let message): Diagnostics.error(message)
                    case .warning(let message): Diagnostics.warning(message)
                    }
                }
                for output in report.outputs {
                    if !json && printedText { print() }
                    print(output)
                    printedText = true
                }
                if let code = report.failure, failure == nil || code == ExitStatus.dataError { failure = code }
            }
            if let failure { throw failure }
        }

        /// Reads one input and renders its reports (on any thread).
        private func report(for input: Input, parallel: Bool) -> Report {
            // Splits of a mile with --units mi; JSON stays metric.
            var options = analysis.statsOptions(unit: json ? .kilometers : units.unit)
            options.includeSplits = splits
            options.includeSegments = perSegment
            var report = Report()
            let activities: [Activity]
            do {
                activities = try input.read(parallel: parallel)
            } catch {
                report.diagnostics.append(.error("\(input.label): \(error)"))
                report.failure = ExitStatus.code(for: error)
                return report
            }
            func label(_ index: Int) -> String {
                activities.count == 1 ? input.label : "\(input.label) [\(index + 1)/\(activities.count)]"
            }
            // The file's own warnings once; an activity's own (times going back) with its label.
            var warned: Set<String> = []
            for (index, activity) in activities.enumerated() {
                for warning in activity.warnings where warned.insert(warning).inserted {
                    let shared = activities.allSatisfy { $0.warnings.contains(warning) }
                    report.diagnostics.append(.warning("\(shared ? input.label : label(index)): \(warning)"))
                }
            }
            for (index, activity) in activities.enumerated() {
                let stats = activity.stats(options: options)
                do {
                    report.outputs.append(
                        json
                            ? try StatsReport(file: input.label, activity: activity, stats: stats).jsonLine()
                            : StatsText.render(file: label(index), activity: activity, stats: stats, unit: units.unit))
                } catch {
                    report.diagnostics.append(.error("\(input.label): \(error)"))
                    report.failure = ExitCode.failure
                }
            }
            return report
        }
    }
}
