import ArgumentParser

extension Runnect {
    /// `runnect export geojson|svg|gpx|tcx|fit`: courses as files other tools and watches read.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write courses as GeoJSON (RFC 7946), SVG previews, or GPX, TCX and FIT for watches.",
            discussion: """
                Each input is a course id in the store, record:ID for the run kept as a record (its \
                own track, not its course's), or a file (GPX, TCX, FIT, tapped points); a name that \
                is an existing file is read as a file, digits otherwise as a course id.
                """,
            subcommands: [ExportGeoJSON.self, ExportSVG.self, ExportGPX.self, ExportTCX.self, ExportFIT.self])
    }
}
