import ArgumentParser
import Foundation
import RunnectKit

extension Runnect {
    /// `runnect export gpx ID|record:R|FILE… [-o OUT] [--as track|route] [--kind course|run]`.
    struct ExportGPX: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gpx",
            abstract: "Write courses and runs as GPX 1.1.",
            discussion: """
                A course is one <trk> (what watches import as a course; --as route writes <rte>s) \
                with its name, description and elevations; a run also keeps its times, heart rate, \
                cadence and temperature in Garmin's gpxtpx:TrackPointExtension. Coordinates are \
                written so they read back as the same numbers. One input is written to standard \
                output or to -o FILE; several inputs need -o DIR and give DIR/<id or file name>.gpx.
                """)

        enum Element: String, ExpressibleByArgument, CaseIterable {
            case track, route
        }

        @OptionGroup var courses: ExportInputs
        @OptionGroup var file: CourseFileOptions

        @Option(name: .customLong("as"), help: "track (<trk>) or route (<rte>, a course only).")
        var element: Element = .track

        func validate() throws {
            try file.validate(inputs: courses.inputs)
            if element == .route && file.kind == .run {
                throw ValidationError("--as route writes a course: routes have no times (leave out --kind run).")
            }
        }

        func run() async throws {
            let failure = try await file.export(courses, fileExtension: "gpx") {
                GPXWriter(options: $0, writesRoutes: element == .route)
            }
            if let failure { throw failure }
        }
    }
}
