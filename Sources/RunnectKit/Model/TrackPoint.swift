import Foundation

/// One recorded or drawn point of a track, route or waypoint list.
///
/// Everything but the position is optional: absent data stays `nil`, never 0.
///
/// A point takes 48 bytes (`MemoryLayout<TrackPoint>.stride`): the position, elevation and time
/// as full doubles, and the five device readings as fixed-point integers at or finer than the
/// resolution devices record them at, so every value a FIT, TCX or GPX file gives reads back as
/// the file wrote it (to the step below):
///
/// | reading | step | range kept |
/// |---|---|---|
/// | ``heartRateBPM`` | 1/128 bpm | 0…511.99 |
/// | ``cadence`` | 1/128 (FIT's fractional cadence) | 0…511.99 |
/// | ``temperatureCelsius`` | 0.01 °C | −327.68…327.67 |
/// | ``deviceSpeedMetersPerSecond`` | 1 mm/s | 0…16,777.215 |
/// | ``deviceDistanceMeters`` | 1 mm | 0…1,099,511,627.775 |
///
/// A reading is rounded to the nearest step when it is set; a value that is not finite or lies
/// outside its range is not a reading a device makes, and is stored as absent (`nil`). Garmin's
/// TCX files write the device's centimetre speeds and distances through 32-bit floats
/// (`1.190000057220459`); they read as `1.19`. ``elevationMeters`` and ``time`` keep every double
/// but NaN, which means absent: setting either to NaN stores `nil`.
public struct TrackPoint: Equatable, Sendable, Codable {
    /// Degrees north, WGS84.
    public var latitude: Double
    /// Degrees east, WGS84.
    public var longitude: Double
    /// The elevation, NaN when absent.
    private var elevationStorage = Double.nan
    /// The time as seconds since 2001-01-01 UTC (`Date`'s own representation), NaN when absent.
    private var timeStorage = Double.nan
    private var device = DeviceReadings()

    /// Elevation above the ellipsoid or the geoid, as the file gives it, metres.
    public var elevationMeters: Double? {
        get { elevationStorage.isNaN ? nil : elevationStorage }
        set { elevationStorage = newValue ?? .nan }
    }

    /// Time of the fix, UTC.
    public var time: Date? {
        get { timeStorage.isNaN ? nil : Date(timeIntervalSinceReferenceDate: timeStorage) }
        set { timeStorage = newValue?.timeIntervalSinceReferenceDate ?? .nan }
    }

    /// ``time`` as seconds since 2001-01-01 UTC, NaN when absent: what the measuring passes read.
    var secondsSinceReferenceDate: Double {
        get { timeStorage }
        set { timeStorage = newValue }
    }

    /// Heart rate, beats per minute, in steps of 1/128 bpm.
    public var heartRateBPM: Double? {
        get { device[DeviceReadings.heartRate] }
        set { device.set(DeviceReadings.heartRate, newValue) }
    }

    /// Cadence as the device recorded it (Garmin-style watches write per-foot steps per minute),
    /// in steps of 1/128.
    public var cadence: Double? {
        get { device[DeviceReadings.cadence] }
        set { device.set(DeviceReadings.cadence, newValue) }
    }

    /// Air temperature, °C, in steps of 0.01 °C.
    public var temperatureCelsius: Double? {
        get { device[DeviceReadings.temperature] }
        set { device.set(DeviceReadings.temperature, newValue) }
    }

    /// The device's own speed at this point (TCX `TPX/Speed`), metres per second, in steps of
    /// 1 mm/s. Reported as recorded; Runnect's speeds come from the positions.
    public var deviceSpeedMetersPerSecond: Double? {
        get { device[DeviceReadings.speed] }
        set { device.set(DeviceReadings.speed, newValue) }
    }

    /// The device's own distance from the start to this point (TCX `DistanceMeters`), metres, in
    /// steps of 1 mm.
    public var deviceDistanceMeters: Double? {
        get { device[DeviceReadings.distance] }
        set { device.set(DeviceReadings.distance, newValue) }
    }

    /// Creates a point; each reading is stored as the type's documentation says (rounded to its
    /// step, `nil` when out of range or not finite).
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
        // The storage starts absent: only the readings given need packing.
        if heartRateBPM != nil { self.heartRateBPM = heartRateBPM }
        if cadence != nil { self.cadence = cadence }
        if temperatureCelsius != nil { self.temperatureCelsius = temperatureCelsius }
        if deviceSpeedMetersPerSecond != nil { self.deviceSpeedMetersPerSecond = deviceSpeedMetersPerSecond }
        if deviceDistanceMeters != nil { self.deviceDistanceMeters = deviceDistanceMeters }
    }

    /// A point with a position alone.
    public init(_ coordinate: Coordinate) {
        self.init(latitude: coordinate.latitude, longitude: coordinate.longitude)
    }

    /// Sets the device reading `field` from a whole number of its units each `stepsEach` steps
    /// (a FIT integer field: bpm, °C, mm/s, cm), as setting the value would, without the rounding.
    mutating func setDeviceReading(_ field: DeviceReadings.Field, whole: Int64, stepsEach: Int64) {
        device.set(field, steps: field.steps(whole: whole, stepsEach: stepsEach))
    }

    /// Sets the device reading `field` to `value`, as setting its property would.
    mutating func setDeviceReading(_ field: DeviceReadings.Field, _ value: Double?) {
        device.set(field, value)
    }

    /// The position alone.
    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

    /// Whether the positions are equal (`==` on each coordinate, so never for a NaN one) and so are
    /// the optional figures, absent ones alike.
    public static func == (lhs: TrackPoint, rhs: TrackPoint) -> Bool {
        lhs.latitude == rhs.latitude && lhs.longitude == rhs.longitude
            && lhs.elevationMeters == rhs.elevationMeters && lhs.time == rhs.time && lhs.device == rhs.device
    }

    enum CodingKeys: String, CodingKey {
        case latitude = "lat", longitude = "lon", elevationMeters = "ele_m", time
        case heartRateBPM = "hr_bpm", cadence, temperatureCelsius = "temp_c"
        case deviceSpeedMetersPerSecond = "device_speed_m_s", deviceDistanceMeters = "device_distance_m"
    }

    /// Decodes a point from the keys ``encode(to:)`` writes, every figure but the position optional.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            latitude: try container.decode(Double.self, forKey: .latitude),
            longitude: try container.decode(Double.self, forKey: .longitude),
            elevationMeters: try container.decodeIfPresent(Double.self, forKey: .elevationMeters),
            time: try container.decodeIfPresent(Date.self, forKey: .time),
            heartRateBPM: try container.decodeIfPresent(Double.self, forKey: .heartRateBPM),
            cadence: try container.decodeIfPresent(Double.self, forKey: .cadence),
            temperatureCelsius: try container.decodeIfPresent(Double.self, forKey: .temperatureCelsius),
            deviceSpeedMetersPerSecond: try container.decodeIfPresent(Double.self, forKey: .deviceSpeedMetersPerSecond),
            deviceDistanceMeters: try container.decodeIfPresent(Double.self, forKey: .deviceDistanceMeters))
    }

    /// Encodes the position and the figures present (absent ones are left out), under short keys
    /// (`lat`, `lon`, `ele_m`, `time`, `hr_bpm`, `cadence`, `temp_c`, `device_speed_m_s`,
    /// `device_distance_m`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encodeIfPresent(elevationMeters, forKey: .elevationMeters)
        try container.encodeIfPresent(time, forKey: .time)
        try container.encodeIfPresent(heartRateBPM, forKey: .heartRateBPM)
        try container.encodeIfPresent(cadence, forKey: .cadence)
        try container.encodeIfPresent(temperatureCelsius, forKey: .temperatureCelsius)
        try container.encodeIfPresent(deviceSpeedMetersPerSecond, forKey: .deviceSpeedMetersPerSecond)
        try container.encodeIfPresent(deviceDistanceMeters, forKey: .deviceDistanceMeters)
    }
}
