import ArgumentParser
import Foundation
import RunnectKit

extension Runnect {
    /// `runnect export fit ID|record:R|FILE… -o OUT [--kind course|run] [--pace M:SS]`.
    struct ExportFIT: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fit",
            abstract: "Write courses as FIT course files and runs as FIT activity files.",
            discussion: """
                A course (file type 6) holds file_id, course (name, sport running), a lap, timer \
                start and stop events, a record per point (position in semicircles, about 1 cm; \
                altitude; distance along the path; a time at --pace) and Start and Finish course \
                points. A run (file type 4) keeps its own times, heart rate and cadence, with \
                laps, a session and the activity message. FIT is binary: standard output must not \
                be a terminal. One input is written to -o FILE (or a pipe); several inputs need \
                -o DIR and give DIR/<id or file name>.fit.
                """)

        @OptionGroup var courses: ExportInputs
        @OptionGroup var file: CourseFileOptions

        func validate() throws {
            try file.validate(inputs: courses.inputs)
            if file.output == nil || file.output == "-", isatty(STDOUT_FILENO) == 1 {
                throw ValidationError("FIT is binary: give -o FILE, or send standard output to a file or a pipe.")
            }
        }

        func run() async throws {
            let failure = try await file.export(courses, fileExtension: "fit") { FITWriter(options: $0) }
            if let failure { throw failure }
        }
    }
}
