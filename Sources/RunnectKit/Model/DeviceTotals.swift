import Foundation

/// What the recording device itself says about an activity or a lap: its odometer distance, its
/// timer, its barometric ascent. Reported beside Runnect's own geodesic figures, never mixed in.
///
/// Every figure is optional: a device that did not record one leaves it `nil`, never 0.
public struct DeviceTotals: Equatable, Sendable, Codable {
    /// The device's distance (wheel, foot pod or its own GPS odometer), metres.
    public var distanceMeters: Double?
    /// Wall-clock time from start to finish, pauses included, seconds.
    public var elapsedTimeSeconds: Double?
    /// Time the timer ran (pauses excluded), seconds.
    public var timerTimeSeconds: Double?
    /// Total ascent, metres.
    public var ascentMeters: Double?
    /// Total descent, metres.
    public var descentMeters: Double?
    /// Energy, kilocalories.
    public var calories: Double?
    /// The sport as the device names it (`running`, `Running`, …).
    public var sport: String?

    public init(
        distanceMeters: Double? = nil, elapsedTimeSeconds: Double? = nil,
        timerTimeSeconds: Double? = nil, ascentMeters: Double? = nil,
        descentMeters: Double? = nil, calories: Double? = nil, sport: String? = nil
    ) {
        self.distanceMeters = distanceMeters
        self.elapsedTimeSeconds = elapsedTimeSeconds
        self.timerTimeSeconds = timerTimeSeconds
        self.ascentMeters = ascentMeters
        self.descentMeters = descentMeters
        self.calories = calories
        self.sport = sport
    }

    enum CodingKeys: String, CodingKey {
        case distanceMeters = "distance_m", elapsedTimeSeconds = "elapsed_time_s"
        case timerTimeSeconds = "timer_time_s", ascentMeters = "ascent_m", descentMeters = "descent_m"
        case calories = "calories_kcal", sport
    }
}

/// A lap as the device recorded it: when it started and the device's totals for it.
public struct Lap: Equatable, Sendable, Codable {
    /// Start of the lap, UTC.
    public var startTime: Date?
    /// The device's figures for this lap.
    public var totals: DeviceTotals

    public init(startTime: Date? = nil, totals: DeviceTotals = DeviceTotals()) {
        self.startTime = startTime
        self.totals = totals
    }

    enum CodingKeys: String, CodingKey {
        case startTime = "start_time", totals
    }
}
