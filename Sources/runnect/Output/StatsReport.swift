import Foundation
import RunnectKit

/// One line of `runnect stats --json`: the input, its format and name, then the stats' own keys.
struct StatsReport: Encodable {
    let file: String
    let activity: Activity
    let stats: ActivityStats

    private enum CodingKeys: String, CodingKey {
        case file, format, name, geometry, warnings, laps
        case deviceDistance = "device_distance_m", deviceAscent = "device_ascent_m"
        case deviceDescent = "device_descent_m", deviceTimerTime = "device_timer_time_s"
        case deviceElapsedTime = "device_elapsed_time_s"
    }

    func encode(to encoder: Encoder) throws {
        var head = encoder.container(keyedBy: CodingKeys.self)
        try head.encode(file, forKey: .file)
        try head.encode(activity.format.rawValue, forKey: .format)
        try head.encode(activity.displayName, forKey: .name)
        try head.encode(activity.isMeasuredOnRoutes ? "route" : "track", forKey: .geometry)
        try stats.encode(to: encoder)
        var tail = encoder.container(keyedBy: CodingKeys.self)
        try tail.encode(activity.warnings, forKey: .warnings)
        // The device's own totals (TCX, FIT), beside ours; null where the format has none.
        let device = activity.deviceTotals
        try tail.encode(JSONResolution.meters(device?.distanceMeters), forKey: .deviceDistance)
        try tail.encode(JSONResolution.meters(device?.ascentMeters), forKey: .deviceAscent)
        try tail.encode(JSONResolution.meters(device?.descentMeters), forKey: .deviceDescent)
        try tail.encode(JSONResolution.seconds(device?.timerTimeSeconds), forKey: .deviceTimerTime)
        try tail.encode(JSONResolution.seconds(device?.elapsedTimeSeconds), forKey: .deviceElapsedTime)
        try tail.encode(activity.laps.count, forKey: .laps)
    }

    func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        // Sorted: Foundation on Linux writes unsorted keys in a different order on every run.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
