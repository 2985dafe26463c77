import ArgumentParser
import Foundation
import RunnectKit

extension Runnect {
    /// `runnect export svg ID|FILE… [-o OUT] [--size WxH] [--profile]`.
    struct ExportSVG: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "svg",
            abstract: "Write SVG previews of courses.",
            discussion: """
                A self-contained picture (no scripts, no external resources): the route in Web \
                Mercator fitted to the size with padding, the start green and the finish red, the \
                path simplified to half a pixel. One input is written to standard output or to -o \
                FILE; several inputs need -o DIR and give DIR/<id or file name>.svg each. With -o, \
                one line per file written is printed (--json: one JSON object per line).
                """)

        @OptionGroup var courses: ExportInputs

        @Option(
            name: .shortAndLong,
            help: ArgumentHelp(
                "The SVG file (one input) or the folder (several inputs).", valueName: "out"))
        var output: String?

        @Option(help: ArgumentHelp("Picture size in pixels, 16x16…8192x8192.", valueName: "WxH"))
        var size: String = "400x300"

        @Option(help: ArgumentHelp("Margin round the route, pixels.", valueName: "px"))
        var padding: Double = 16

        @Flag(help: "Add an elevation profile along the bottom.")
        var profile = false

        func validate() throws {
            _ = try dimensions()
            guard padding >= 0, padding.isFinite else { throw ValidationError("--padding must be 0 px or more.") }
            if courses.inputs.count > 1 && output == nil {
                throw ValidationError("Several inputs need -o DIR (one SVG per input).")
            }
        }

        private func dimensions() throws -> (width: Int, height: Int) {
            let parts = size.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
                (16...8192).contains(width), (16...8192).contains(height)
            else {
                throw ValidationError(
                    "--size must be WIDTHxHEIGHT in pixels, 16x16…8192x8192 (e.g. 400x300), not '\(size)'.")
            }
            return (width, height)
        }

        func run() async throws {
            let (width, height) = try dimensions()
            var targets = try ExportTargets(output: output, inputCount: courses.inputs.count, fileExtension: "svg")
            let failure = try await courses.readEach { course in
                let options = SVGPreviewOptions(
                    widthPixels: width, heightPixels: height, paddingPixels: padding,
                    includeProfile: profile, title: course.title)
                let svg = Data(try SVGPreview(activity: course.activity, options: options).svg.utf8)
                let target = targets.path(for: course)
                try ExportOutput.write(svg, to: target)
                try ExportTargets.report(course, to: target, bytes: svg.count, json: courses.store.json)
            }
            if let failure { throw failure }
        }
    }
}
