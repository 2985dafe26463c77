import Foundation

/// One recorded or drawn point of a track, route or waypoint list.
///
/// Everything but the position is optional: absent data stays `nil`, never 0.
public struct TrackPoint: Equatable, Sendable, Codable {
    /// Degrees north, WGS84.
    public var latitude: Double
    /// Degrees east, WGS84.
    public var longitude: Double
    /// Elevation above the ellipsoid or the geoid, as the file gives it, metres.
    public var elevationMeters: Double?
    /// Time of the fix, UTC.
    public var time: Date?
    /// Heart rate, beats per minute.
    public var heartRateBPM: Double?
    /// Cadence as the device recorded it (Garmin-style watches write per-foot steps per minute).
    public var cadence: Double?
    /// Air temperature, °C.
    public var temperatureCelsius: Double?
    /// The device's own speed at this point (TCX `TPX/Speed`), metres per second. Reported as
    /// recorded; Runnect's speeds come from the positions.
    public var deviceSpeedMetersPerSecond: Double?
    /// The device's own distance from the start to this point (TCX `DistanceMeters`), metres.
    public var deviceDistanceMeters: Double?

    public init(
        latitude: Double, longitude: Double, elevationMeters: Double? = nil,
        time: Date? = nil, heartRateBPM: Double? = nil, cadence: Double? = nil,
        temperatureCelsius: Double? = nil, deviceSpeedMetersPerSecond: Double? = nil,
        deviceDistanceMeters: Double? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.elevationMeters = elevationMeters
        self.time = time
        self.heartRateBPM = heartRateBPM
        self.cadence = cadence
        self.temperatureCelsius = temperatureCelsius
        self.deviceSpeedMetersPerSecond = deviceSpeedMetersPerSecond
        self.deviceDistanceMeters = deviceDistanceMeters
    }

    public init(_ coordinate: Coordinate) {
        self.init(latitude: coordinate.latitude, longitude: coordinate.longitude)
    }

    /// The position alone.
    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

    enum CodingKeys: String, CodingKey {
        case latitude = "lat", longitude = "lon", elevationMeters = "ele_m", time
        case heartRateBPM = "hr_bpm", cadence, temperatureCelsius = "temp_c"
        case deviceSpeedMetersPerSecond = "device_speed_m_s", deviceDistanceMeters = "device_distance_m"
    }
}
