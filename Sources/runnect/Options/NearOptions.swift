import ArgumentParser
import Foundation
import RunnectKit
import RunnectStore

/// `--near LAT,LON` and `--within KM`, shared by `search` and `list`.
struct NearOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Only courses whose path passes near this point, closest first (degrees, e.g. 37.5113,127.0985).",
            valueName: "lat,lon"))
    var near: String?

    @Option(
        help: ArgumentHelp(
            "With --near: how far the path may pass, kilometres (default 5, at most 1000).", valueName: "km"))
    var within: Double?

    /// The point of `--near`, once `validate()` has passed.
    var point: Coordinate? { near.flatMap(Self.parse) }

    /// The distance in metres.
    var withinMeters: Double { (within ?? CourseStore.defaultNearbyMeters / 1000) * 1000 }

    func validate() throws {
        if let near, Self.parse(near) == nil {
            throw ValidationError(
                "--near \(near): give the point as LAT,LON in degrees, latitude -90…90 and longitude -180…180 "
                    + "(e.g. --near 37.5113,127.0985)")
        }
        if let within {
            guard near != nil else { throw ValidationError("--within needs --near LAT,LON") }
            let maximum = CourseStore.maximumNearbyMeters / 1000
            guard within.isFinite, within > 0, within <= maximum else {
                throw ValidationError(
                    "--within \(within): give a distance in kilometres, more than 0 and at most \(Int(maximum))")
            }
        }
    }

    /// `LAT,LON` (spaces allowed around the comma) as a valid coordinate.
    static func parse(_ text: String) -> Coordinate? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
            let latitude = Double(parts[0].trimmingCharacters(in: .whitespaces)),
            let longitude = Double(parts[1].trimmingCharacters(in: .whitespaces))
        else { return nil }
        let point = Coordinate(latitude: latitude, longitude: longitude)
        return point.isValid ? point : nil
    }
}
