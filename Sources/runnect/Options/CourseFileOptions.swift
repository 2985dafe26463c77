import ArgumentParser
import Foundation
import RunnectKit

/// The options `export gpx`, `export tcx` and `export fit` share, and the export loop they run.
struct CourseFileOptions: ParsableArguments {
    /// A course or a run, as typed.
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case course, run

        var exportKind: ExportKind { self == .course ? .course : .run }
    }

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("The file (one input) or the folder (several inputs).", valueName: "out"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "course: the path, its positions and elevations (TCX and FIT add times at --pace); run: the recording with its own times, heart rate and cadence. Default: course for a course id, a route or a file not timed at every point; run for record:R and a file timed at every point, the times advancing."
        ))
    var kind: Kind?

    @Option(
        help: ArgumentHelp(
            "The pace of a course's times, M:SS per km or seconds per km.", valueName: "pace"))
    var pace: String = "6:00"

    /// `--pace` in seconds per kilometre.
    func paceSecondsPerKilometer() throws -> Double {
        let parts = pace.split(separator: ":", omittingEmptySubsequences: false)
        let seconds: Double?
        switch parts.count {
        case 1: seconds = Double(pace)
        case 2:
            if let minutes = Int(parts[0]), let rest = Double(parts[1]), minutes >= 0, rest >= 0, rest < 60 {
                seconds = Double(minutes) * 60 + rest
            } else {
                seconds = nil
            }
        default: seconds = nil
        }
        guard let seconds, seconds.isFinite, seconds >= 60, seconds <= 3600 else {
            throw ValidationError(
                "--pace must be M:SS per km (or seconds per km) between 1:00 and 60:00, not '\(pace)'.")
        }
        return seconds
    }

    /// Checks the options against the inputs.
    func validate(inputs: [String]) throws {
        _ = try paceSecondsPerKilometer()
        if inputs.count > 1 && output == nil {
            throw ValidationError("Several inputs need -o DIR (one file per input).")
        }
    }

    /// Writes each input with the writer `writer` makes for its options into its target. An input
    /// that cannot be read, or that the writer refuses (a one-point course), is reported on
    /// standard error and written nowhere; the others go on.
    /// - Returns: The exit code of the worst failure, `nil` when every input was written.
    func export(
        _ courses: ExportInputs, fileExtension: String, writer: (ExportOptions) -> any CourseFileWriter
    ) async throws -> ExitCode? {
        let pace = try paceSecondsPerKilometer()
        var targets = try ExportTargets(output: output, inputCount: courses.inputs.count, fileExtension: fileExtension)
        var refused = false
        let failure = try await courses.readEach { course in
            let options = ExportOptions(
                kind: kind?.exportKind ?? course.kind, name: course.title, description: course.description,
                paceSecondsPerKilometer: pace, startTime: course.createdAt)
            let target = targets.path(for: course)
            do {
                let bytes = try ExportOutput.stream(to: target) { sink in
                    try writer(options).write(course.activity, to: &sink)
                }
                try ExportTargets.report(course, to: target, bytes: bytes, json: courses.store.json)
            } catch let error as WriteError {
                Diagnostics.error("\(course.label): \(error)")
                refused = true
            }
        }
        return refused ? ExitStatus.dataError : failure
    }
}
