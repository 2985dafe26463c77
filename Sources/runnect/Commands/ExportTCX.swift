import ArgumentParser
import Foundation
import RunnectKit

extension Runnect {
    /// `runnect export tcx ID|record:R|FILE… [-o OUT] [--kind course|run] [--pace M:SS]`.
    struct ExportTCX: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tcx",
            abstract: "Write courses and runs as TCX (Garmin Training Center XML v2).",
            discussion: """
                A course is a <Courses><Course>: its name (cut to the 15 characters TCX allows), a \
                lap with the total time and distance, the track with times at --pace and \
                DistanceMeters measured on the WGS84 ellipsoid, and Start and Finish course points. \
                A run is an <Activities> activity with a lap per segment, its own times, heart \
                rate and cadence. One input is written to standard output or to -o FILE; several \
                inputs need -o DIR and give DIR/<id or file name>.tcx.
                """)

        @OptionGroup var courses: ExportInputs
        @OptionGroup var file: CourseFileOptions

        func validate() throws {
            try file.validate(inputs: courses.inputs)
        }

        func run() async throws {
            let failure = try await file.export(courses, fileExtension: "tcx") { TCXWriter(options: $0) }
            if let failure { throw failure }
        }
    }
}
