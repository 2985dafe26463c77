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

        func validate() throws {
            if pointsText != nil && pointsFile != nil {
                throw ValidationError("Give either --points or --points-file, not both.")
            }
        }

        func run() throws {
            var options = analysis.statsOptions
            options.includeSplits = splits
            options.includeSegments = perSegment

            // A file may hold several activities (TCX): one report each.
            var inputs: [(label: String, read: () throws -> [Activity])] = []
            if let pointsText {
                inputs.append(("--points", { [try TappedPointsReader.read(text: pointsText)] }))
            }
            if let pointsFile {
                inputs.append((pointsFile, { [try ActivityReader.read(path: pointsFile)] }))
            }
            for file in files {
                inputs.append((file, { try ActivityReader.readAll(path: file) }))
            }
            if inputs.isEmpty {
                inputs.append(("-", { try ActivityReader.readAll(path: "-") }))
            }

            var failure: ExitCode?
            var printedText = false
            for input in inputs {
                let activities: [Activity]
                do {
                    activities = try input.read()
                } catch {
                    Diagnostics.error("\(input.label): \(error)")
                    if failure == nil || ExitStatus.code(for: error) == ExitStatus.dataError {
                        failure = ExitStatus.code(for: error)
                    }
                    continue
                }
                // The file's own warnings once; an activity's own (times going back) with its label.
                var warned: Set<String> = []
                for (index, activity) in activities.enumerated() {
                    let label =
                        activities.count == 1 ? input.label : "\(input.label) [\(index + 1)/\(activities.count)]"
                    for warning in activity.warnings where warned.insert(warning).inserted {
                        let shared = activities.allSatisfy { $0.warnings.contains(warning) }
                        Diagnostics.warning("\(shared ? input.label : label): \(warning)")
                    }
                }
                for (index, activity) in activities.enumerated() {
                    let stats = activity.stats(options: options)
                    if json {
                        let report = StatsReport(file: input.label, activity: activity, stats: stats)
                        print(try report.jsonLine())
                    } else {
                        if printedText { print() }
                        let label =
                            activities.count == 1 ? input.label : "\(input.label) [\(index + 1)/\(activities.count)]"
                        print(StatsText.render(file: label, activity: activity, stats: stats))
                        printedText = true
                    }
                }
            }
            if let failure { throw failure }
        }
    }
}
