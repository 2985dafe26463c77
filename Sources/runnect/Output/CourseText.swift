import Foundation
import RunnectKit
import RunnectStore

/// Courses as a person reads them.
enum CourseText {
    /// `#12  반포 한강공원 달빛 러닝 10K  10.14 km  5'44"/km  서울 서초구 반포동  shared ★3`
    ///
    /// With `awayMeters` (a near-me search), how far the path passes comes after the id:
    /// `#12  350 m away  반포 한강공원 달빛 러닝 10K  10.14 km  …`.
    /// `unit`: kilometres or miles for the distance and the pace.
    static func line(_ course: Course, awayMeters: Double? = nil, unit: DistanceUnit = .kilometers) -> String {
        var parts = ["#\(course.id)"]
        if let awayMeters { parts.append(away(awayMeters, unit: unit)) }
        parts += [course.title.forTerminal, RunnerFormat.distance(meters: course.stats.distanceMeters, in: unit)]
        if let pace = course.stats.averagePaceSecondsPerKilometer {
            parts.append(RunnerFormat.pace(secondsPerKilometer: pace, per: unit) + "/" + unit.symbol)
        }
        if let departure = course.departure { parts.append(place(departure)) }
        var flags = course.isUploaded ? "shared" : "private"
        if course.scrapCount > 0 { flags += " ★\(course.scrapCount)" }
        if course.isScrapped { flags += " (scrapped)" }
        parts.append(flags)
        parts.append("by \(course.owner.forTerminal)")
        return parts.joined(separator: "  ")
    }

    /// `0 m away`, `350 m away`, `1.24 km away`; in miles, `0.22 mi away`.
    static func away(_ meters: Double, unit: DistanceUnit = .kilometers) -> String {
        guard unit == .kilometers else { return RunnerFormat.distance(meters: meters, in: unit) + " away" }
        return meters < 999.5 ? String(format: "%.0f m away", meters) : String(format: "%.2f km away", meters / 1000)
    }

    /// `서울 송파구 잠실동 올림픽로 25 (잠실종합운동장)`.
    private static func place(_ departure: Departure) -> String {
        (departure.name.map { "\(departure.address) (\($0))" } ?? departure.address).forTerminal
    }

    /// The detail view of `runnect show`, distances and pace in `unit`.
    static func detail(_ course: Course, unit: DistanceUnit = .kilometers) -> String {
        var lines = ["#\(course.id)  \(course.title.forTerminal)"]
        func row(_ label: String, _ value: String) {
            lines.append("  " + label.padding(toLength: 13, withPad: " ", startingAt: 0) + value)
        }
        if let description = course.description {
            // Lines after the first are indented under the first: none can pass for a row of its own.
            let indent = "\n" + String(repeating: " ", count: 15)
            row(
                "Description",
                ControlCharacters.escaped(description, keepingLineBreaks: true)
                    .replacingOccurrences(of: "\n", with: indent))
        }
        if let departure = course.departure { row("Departure", place(departure)) }
        row("Owner", course.owner.forTerminal)
        row(
            "Shared",
            course.isUploaded
                ? "yes, since \(course.uploadedAt.map(RunnerFormat.timestamp) ?? "?")" : "no")
        row("Scraps", "\(course.scrapCount)\(course.isScrapped ? " (you scrapped it)" : "")")
        row("Distance", RunnerFormat.distance(meters: course.stats.distanceMeters, in: unit))
        if course.stats.elapsedTimeSeconds != nil {
            row(
                "Time",
                RunnerFormat.duration(seconds: course.stats.elapsedTimeSeconds) + " elapsed · "
                    + RunnerFormat.duration(seconds: course.stats.movingTimeSeconds) + " moving")
            row(
                "Pace",
                RunnerFormat.pace(secondsPerKilometer: course.stats.averagePaceSecondsPerKilometer, per: unit) + "/"
                    + unit.symbol)
        }
        if let gain = course.stats.elevationGainMeters, let loss = course.stats.elevationLossMeters {
            row("Elevation", String(format: "+%.0f m / −%.0f m", gain, loss))
        }
        row("Points", "\(course.stats.points) in \(course.stats.segmentCount) segment(s)")
        row(
            "Source", "\(course.sourceFormat.forTerminal), sha256 \(String(course.contentHash.prefix(12)).forTerminal)…"
        )
        row("Created", RunnerFormat.timestamp(course.createdAt))
        return lines.joined(separator: "\n")
    }
}
