import Foundation
import RunnectKit

extension StatsText {
    /// The device's own totals (FIT session, TCX laps), beside Runnect's figures:
    /// `Device       14.00 km · 1:23:09 timer · 1:23:09 elapsed · +347 m / −371 m · 2 laps`.
    /// `nil` when the format carries none.
    static func deviceRow(_ activity: Activity) -> String? {
        guard let device = activity.deviceTotals else { return nil }
        var parts: [String] = []
        if let distance = device.distanceMeters { parts.append(RunnerFormat.kilometers(meters: distance)) }
        if let timer = device.timerTimeSeconds { parts.append(RunnerFormat.duration(seconds: timer) + " timer") }
        if let elapsed = device.elapsedTimeSeconds { parts.append(RunnerFormat.duration(seconds: elapsed) + " elapsed") }
        switch (device.ascentMeters, device.descentMeters) {
        case let (up?, down?): parts.append(String(format: "+%.0f m / −%.0f m", up, down))
        case let (up?, nil): parts.append(String(format: "+%.0f m", up))
        case let (nil, down?): parts.append(String(format: "−%.0f m", down))
        case (nil, nil): break
        }
        if !activity.laps.isEmpty { parts.append("\(activity.laps.count) lap\(activity.laps.count == 1 ? "" : "s")") }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}
