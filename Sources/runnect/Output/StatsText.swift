import Foundation
import RunnectKit

/// The runner's summary printed by `runnect stats` without `--json`.
enum StatsText {
    /// Distances, paces and splits in `unit`.
    static func render(
        file: String, activity: Activity, stats: ActivityStats, unit: DistanceUnit = .kilometers
    ) -> String {
        var lines: [String] = []
        let kind = activity.isMeasuredOnRoutes ? "route" : "track"
        lines.append("\(file.forTerminal)  (\(formatName(activity.format)), \(kind))")
        if let name = activity.displayName { lines.append("  \(name.forTerminal)") }

        var distance = RunnerFormat.distance(meters: stats.distanceMeters, in: unit)
        if let distance3D = stats.distance3DMeters {
            distance += "  (3D \(RunnerFormat.distance(meters: distance3D, in: unit)))"
        }
        row(&lines, "Distance", distance)
        if let device = deviceSummary(activity, unit: unit) { row(&lines, "Device", device) }
        if stats.elapsedTimeSeconds != nil {
            row(
                &lines, "Time",
                "\(RunnerFormat.duration(seconds: stats.elapsedTimeSeconds)) elapsed · "
                    + "\(RunnerFormat.duration(seconds: stats.movingTimeSeconds)) moving")
            row(
                &lines, "Pace",
                "\(RunnerFormat.pace(secondsPerKilometer: stats.averagePaceSecondsPerKilometer, per: unit))/\(unit.symbol) avg · "
                    + "\(RunnerFormat.pace(secondsPerKilometer: stats.movingPaceSecondsPerKilometer, per: unit))/\(unit.symbol) moving"
            )
        } else {
            row(&lines, "Time", "no timestamps")
        }
        if let maxSpeed = stats.maxSpeedMetersPerSecond {
            let pace = RunnerFormat.pace(secondsPerKilometer: maxSpeed > 0 ? 1000 / maxSpeed : nil, per: unit)
            row(&lines, "Max speed", String(format: "%.2f m/s", maxSpeed) + " (\(pace)/\(unit.symbol))")
        }
        if let gain = stats.elevationGainMeters, let loss = stats.elevationLossMeters,
            let low = stats.minElevationMeters, let high = stats.maxElevationMeters
        {
            row(&lines, "Elevation", String(format: "+%.0f m / −%.0f m  (%.0f–%.0f m)", gain, loss, low, high))
        }
        if let average = stats.averageHeartRateBPM, let maximum = stats.maxHeartRateBPM {
            row(&lines, "Heart rate", String(format: "%.0f avg · %.0f max bpm", average, maximum))
        }
        if let average = stats.averageCadence, let maximum = stats.maxCadence {
            row(&lines, "Cadence", String(format: "%.0f avg · %.0f max", average, maximum))
        }
        row(&lines, "Points", "\(stats.points) in \(stats.segmentCount) segment\(stats.segmentCount == 1 ? "" : "s")")
        if let start = stats.startTime, let end = stats.endTime {
            row(&lines, "Start / end", "\(isoUTC(start)) → \(isoUTC(end))")
        }
        if let bounds = stats.bounds {
            row(
                &lines, "Bounds",
                String(
                    format: "%.5f,%.5f → %.5f,%.5f", bounds.minLatitude, bounds.minLongitude,
                    bounds.maxLatitude, bounds.maxLongitude))
        }
        if let splits = stats.splits, !splits.isEmpty {
            lines.append("  Splits")
            lines.append("      #   distance     time     pace   elevation")
            for split in splits {
                let elevation =
                    split.elevationGainMeters.map { gain in
                        String(format: "+%.0f −%.0f", gain, split.elevationLossMeters ?? 0)
                    } ?? "–"
                lines.append(
                    "    " + pad(String(split.index), 3) + "  "
                        + pad(RunnerFormat.distance(meters: split.distanceMeters, in: unit), 9) + "  "
                        + pad(RunnerFormat.duration(seconds: split.elapsedTimeSeconds), 7) + "  "
                        + pad(RunnerFormat.pace(secondsPerKilometer: split.paceSecondsPerKilometer, per: unit), 7)
                        + "   " + elevation)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The device's own totals (``Activity/deviceTotals``: TCX lap sums, a FIT session) that it
    /// recorded, and its lap count, to read beside ours; `nil` when it recorded none.
    private static func deviceSummary(_ activity: Activity, unit: DistanceUnit) -> String? {
        var parts: [String] = []
        if let device = activity.deviceTotals {
            if let meters = device.distanceMeters { parts.append(RunnerFormat.distance(meters: meters, in: unit)) }
            if let seconds = device.timerTimeSeconds {
                parts.append("\(RunnerFormat.duration(seconds: seconds)) timer")
            }
            if let seconds = device.elapsedTimeSeconds {
                parts.append("\(RunnerFormat.duration(seconds: seconds)) elapsed")
            }
            let climb = [
                device.ascentMeters.map { String(format: "+%.0f m", $0) },
                device.descentMeters.map { String(format: "−%.0f m", $0) },
            ].compactMap { $0 }
            if !climb.isEmpty { parts.append(climb.joined(separator: " / ")) }
            if let calories = device.calories { parts.append(String(format: "%.0f kcal", calories)) }
        }
        if !activity.laps.isEmpty { parts.append("\(activity.laps.count) lap\(activity.laps.count == 1 ? "" : "s")") }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// Right-aligns `text` in `width` characters.
    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    private static func row(_ lines: inout [String], _ label: String, _ value: String) {
        lines.append("  " + label.padding(toLength: 13, withPad: " ", startingAt: 0) + value)
    }

    private static func formatName(_ format: ActivityFormat) -> String {
        switch format {
        case .gpx10: return "GPX 1.0"
        case .gpx11: return "GPX 1.1"
        case .gpx: return "GPX"
        case .pointsText: return "tapped points"
        case .pointsJSON: return "tapped points JSON"
        case .geoJSON: return "GeoJSON"
        case .tcx: return "TCX"
        case .fit: return "FIT"
        }
    }

    private static func isoUTC(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
