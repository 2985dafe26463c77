/// The thresholds and extras of an ``ActivityStats`` computation.
///
/// Every property has a default that suits running; the defaults are what `runnect stats` uses
/// unless told otherwise.
public struct StatsOptions: Sendable, Equatable, Codable {
    /// A leg counts as moving when its speed is above this, metres per second.
    ///
    /// The default, 0.894 m/s, is 30 minutes per mile: the rule running services publish for their
    /// "moving time". Anything slower is standing at a crossing, not running or walking.
    public var movingSpeedThresholdMetersPerSecond: Double

    /// The elevation change that must build up before it counts as gain or loss, metres.
    ///
    /// Recorded elevations jitter by a metre or two from fix to fix (GPS and barometer alike), and
    /// the naive sum of every step counts each wobble twice. The default, 2 m, was chosen on
    /// real recordings whose devices report their own totals:
    ///
    /// | recording | naive sum | 1 m | **2 m** | 3 m | device |
    /// |---|---|---|---|---|---|
    /// | Garmin Forerunner 945, Sloatsburg (GPX export of the FIT) | +431 / −451 | +374 / −395 | **+350 / −371** | +332 / −353 | +347 / −371 |
    /// | Suunto 9 Baro, mountain trail run (FIT records, barometric) | +1999 / −186 | +1843 / −30 | **+1822 / −8** | +1818 / −6 | +1817 / −3 |
    /// | Suunto 9 Baro, run with pauses (FIT records) | +197 / −195 | +16 / −14 | **+6 / −4** | +3 / −0 | +3 / −3 |
    ///
    /// At 2 m the Forerunner's run lands within 1 % of the watch's ascent and on its descent
    /// exactly; 3 m already undercounts it by 4 %. Tracks whose elevations come rounded to whole
    /// metres from a terrain model are noisier: the MyTrails Alps run
    /// (`trail_mytrails_alps_2seg.gpx`) sums to +5312 m naively, +5122 m at 2 m and about +3370 m
    /// only at 8 m, close to gpxpy's smoothed +3384 m. Raise the threshold for such files.
    public var elevationHysteresisMeters: Double

    /// The length of one split, metres (1000: kilometre splits).
    public var splitDistanceMeters: Double

    /// Whether ``ActivityStats/splits`` is computed (it is `nil` otherwise).
    public var includeSplits: Bool

    /// Whether ``ActivityStats/perSegment`` is computed (it is `nil` otherwise).
    public var includeSegments: Bool

    /// The default moving threshold: 30 min/mile, in metres per second.
    public static let defaultMovingSpeedThresholdMetersPerSecond = 0.894
    /// The default elevation hysteresis, metres; see ``elevationHysteresisMeters`` for the figures.
    public static let defaultElevationHysteresisMeters = 2.0
    /// The default split length, metres.
    public static let defaultSplitDistanceMeters = 1000.0

    /// Options with the given values; every parameter defaults to the running default.
    public init(
        movingSpeedThresholdMetersPerSecond: Double = StatsOptions.defaultMovingSpeedThresholdMetersPerSecond,
        elevationHysteresisMeters: Double = StatsOptions.defaultElevationHysteresisMeters,
        splitDistanceMeters: Double = StatsOptions.defaultSplitDistanceMeters,
        includeSplits: Bool = false,
        includeSegments: Bool = false
    ) {
        self.movingSpeedThresholdMetersPerSecond = movingSpeedThresholdMetersPerSecond
        self.elevationHysteresisMeters = elevationHysteresisMeters
        self.splitDistanceMeters = splitDistanceMeters
        self.includeSplits = includeSplits
        self.includeSegments = includeSegments
    }

    enum CodingKeys: String, CodingKey {
        case movingSpeedThresholdMetersPerSecond = "moving_speed_threshold_m_s"
        case elevationHysteresisMeters = "elevation_hysteresis_m"
        case splitDistanceMeters = "split_distance_m"
        case includeSplits = "include_splits"
        case includeSegments = "include_segments"
    }

    /// Decodes options; a missing key takes its default, so `{}` is the default options.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = StatsOptions()
        self.init(
            movingSpeedThresholdMetersPerSecond: try container.decodeIfPresent(
                Double.self, forKey: .movingSpeedThresholdMetersPerSecond)
                ?? defaults.movingSpeedThresholdMetersPerSecond,
            elevationHysteresisMeters: try container.decodeIfPresent(
                Double.self, forKey: .elevationHysteresisMeters) ?? defaults.elevationHysteresisMeters,
            splitDistanceMeters: try container.decodeIfPresent(
                Double.self, forKey: .splitDistanceMeters) ?? defaults.splitDistanceMeters,
            includeSplits: try container.decodeIfPresent(Bool.self, forKey: .includeSplits)
                ?? defaults.includeSplits,
            includeSegments: try container.decodeIfPresent(Bool.self, forKey: .includeSegments)
                ?? defaults.includeSegments)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(movingSpeedThresholdMetersPerSecond, forKey: .movingSpeedThresholdMetersPerSecond)
        try container.encode(elevationHysteresisMeters, forKey: .elevationHysteresisMeters)
        try container.encode(splitDistanceMeters, forKey: .splitDistanceMeters)
        try container.encode(includeSplits, forKey: .includeSplits)
        try container.encode(includeSegments, forKey: .includeSegments)
    }
}
