import ArgumentParser
import RunnectKit
import RunnectStore

extension Runnect {
    /// `runnect draw`: save a course drawn by tapping a map.
    struct Draw: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Save a course drawn by tapping (at least 2 points); legs are straight geodesics.")

        @Option(name: .customLong("points"), help: ArgumentHelp("\"lat,lon lat,lon …\"", valueName: "taps"))
        var pointsText: String?

        @Option(help: ArgumentHelp("A file of tapped points (text, JSON or GeoJSON).", valueName: "file"))
        var pointsFile: String?

        @Option(help: "The course's title.")
        var title: String

        @Option(help: "Its description.")
        var description: String?

        @OptionGroup var departure: DepartureOptions

        @OptionGroup var units: UnitsOptions

        @OptionGroup var store: StoreOptions

        func validate() throws {
            guard (pointsText == nil) != (pointsFile == nil) else {
                throw ValidationError("Give the taps with --points or --points-file (one of them).")
            }
        }

        func run() async throws {
            let activity: Activity
            do {
                activity =
                    try pointsText.map { try TappedPointsReader.read(text: $0) }
                    ?? ActivityReader.read(path: pointsFile!)
            } catch {
                Diagnostics.error("\(pointsFile ?? "--points"): \(error)")
                throw ExitStatus.code(for: error)
            }
            let taps = activity.courseSegments.flatMap { $0 }.map(\.coordinate)
            let place = try departure.place()
            let course = try await store.withStore(writing: true) {
                try await $0.draw(points: taps, title: title, description: description, departure: place)
            }
            try CourseOutput.print([course], json: store.json, unit: units.unit)
        }
    }
}
