import ArgumentParser
import Foundation
import RunnectKit

extension Runnect {
    /// `runnect export geojson ID|FILE… [-o OUT] [--simplify METRES]`.
    struct ExportGeoJSON: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "geojson",
            abstract: "Write courses as GeoJSON (RFC 7946).",
            discussion: """
                One input gives a Feature (a LineString, or a MultiLineString for several segments \
                or a line cut at the antimeridian) with a bbox and the course's properties; \
                several inputs, or a course with waypoints, give one FeatureCollection. Positions \
                are [lon, lat, ele] (elevation only when every point has one).
                """)

        @OptionGroup var courses: ExportInputs

        @Option(
            name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "out"))
        var output: String?

        @Option(help: ArgumentHelp("Douglas–Peucker tolerance, metres (default: every point).", valueName: "metres"))
        var simplify: Double?

        @Flag(help: "Leave elevations out of the positions.")
        var noElevation = false

        @Option(help: ArgumentHelp("Decimal places of longitudes and latitudes (default: as read).", valueName: "n"))
        var decimals: Int?

        func validate() throws {
            if let simplify, !(simplify >= 0 && simplify.isFinite) {
                throw ValidationError("--simplify must be 0 m or more.")
            }
            if let decimals, !(0...15).contains(decimals) {
                throw ValidationError("--decimals must be 0…15.")
            }
            if courses.store.json {
                throw ValidationError("--json does not apply: the output is GeoJSON already.")
            }
        }

        func run() async throws {
            var writer = GeoJSONWriter(
                options: GeoJSONOptions(
                    simplifyToleranceMeters: simplify, includeElevation: !noElevation, coordinateDecimals: decimals))
            let failure = try await courses.readEach { course in
                try writer.add(course.activity, id: course.id, properties: course.properties)
            }
            if writer.featureCount > 0 || failure == nil {
                try ExportOutput.write(
                    courses.inputs.count > 1 ? writer.featureCollection() : writer.document(),
                    to: output)
            }
            if let failure { throw failure }
        }
    }
}
