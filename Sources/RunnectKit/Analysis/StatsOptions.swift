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

    /// A leg slower than ``movingSpeedThresholdMetersPerSecond`` still counts as moving while the
    /// runner climbs or descends at least this fast, metres per hour; 0 turns the rule off.
    ///
    /// On steep ground a runner hikes: the Suunto 9 Baro mountain run (1,817 m up in 8.2 km) spends
    /// most of its 9,543 s timer below 0.894 m/s, and the speed rule alone counts 3,375 s of it as
    /// moving. The rule looks at a window of ``movingVerticalWindowSeconds`` centred on the leg
    /// (never reaching over a timer pause or past the segment's first or last elevation) and takes
    /// the leg as moving when the net change of elevation over the window is at least this rate
    /// *and* the distance along the track over the window is at least
    /// ``movingVerticalMinimumHorizontalSpeedMetersPerSecond``. The default, 400 m/h, brings that
    /// run to 9,251 s (−3.1 % of its timer) and no road run in the corpus moves by more than 0.6 %:
    /// a barometer drifts by about 10 m/h with the weather, far below it. Elevations are the ones
    /// the elevation figures use (spikes and samples inside a pause left out, see
    /// ``elevationSpikeVerticalSpeedMetersPerSecond``), linearly interpolated; a window shorter
    /// than half of ``movingVerticalWindowSeconds`` (at the ends of a segment) never applies.
    public var movingVerticalSpeedThresholdMetersPerHour: Double

    /// The length of the window the steep-ground rule of ``movingVerticalSpeedThresholdMetersPerHour``
    /// measures, seconds (default 60).
    ///
    /// Long enough that the barometer's noise (a few tenths of a metre) stays far below 400 m/h,
    /// short enough that a stop at a crossing between two climbs is not carried along: on the corpus
    /// 120 s already adds 1.4 % to a road run.
    public var movingVerticalWindowSeconds: Double

    /// The slowest distance along the track over the window of the steep-ground rule, metres per
    /// second (default 0.2): a runner standing still with an elevation that drifts is not moving.
    ///
    /// A watch without a barometer (the Forerunner 110) reads its elevation from GPS, which can
    /// climb 8 m in a minute while the runner stands at 0.01–0.1 m/s; a hiker on a 400 m/h slope
    /// still covers 0.3 m/s or more.
    public var movingVerticalMinimumHorizontalSpeedMetersPerSecond: Double

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

    /// An elevation that moves away from the last one kept faster than this, metres per second
    /// (plus ``elevationSpikeSlackMeters``), is a spike and is left out; 0 keeps every elevation.
    ///
    /// Per segment, the first elevation is kept; a later one `e` at time `t` is kept when
    /// `|e − e₀| ≤ rate · (t − t₀) + slack`, where `(t₀, e₀)` is the last elevation kept. A spike
    /// left out does not become the reference, so the allowance grows with the time since: a real
    /// shift of S metres is taken after about S / rate seconds. Elevations of untimed points, and
    /// the first one after an untimed elevation, are always kept. Elevations recorded while the
    /// timer was stopped (strictly inside one of ``Activity/timerPauses``) are left out too. What
    /// is left out counts as no elevation for every figure: gain, loss, lowest, highest, the 3D
    /// distance and the splits' gain.
    ///
    /// The Garmin fenix 2 run reads 87 m too high for its first three seconds, in the barometric
    /// altitude itself: without the gate its gain is +143.4 m where the watch says +64 m, with it
    /// +61.2 m. The default, 5 m/s, is faster than anyone climbs on foot (a vertical-kilometre
    /// record is about 0.5 m/s); on the rest of the corpus it leaves out two elevations, both in
    /// the MyTrails Alps GPX. Every rate from 2 to 20 m/s
    /// (with a slack of 0.5–2 m) keeps all seven device ascents of the corpus within 10 % or 5 m.
    public var elevationSpikeVerticalSpeedMetersPerSecond: Double

    /// The change an elevation may make from the last one kept whatever the time between them,
    /// metres (default 1): the quantisation and jitter of consecutive readings.
    public var elevationSpikeSlackMeters: Double

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
    /// The default steep-ground moving rate, metres per hour; see
    /// ``movingVerticalSpeedThresholdMetersPerHour``.
    public static let defaultMovingVerticalSpeedThresholdMetersPerHour = 400.0
    /// The default window of the steep-ground moving rule, seconds.
    public static let defaultMovingVerticalWindowSeconds = 60.0
    /// The default slowest distance along the track of the steep-ground moving rule, m/s.
    public static let defaultMovingVerticalMinimumHorizontalSpeedMetersPerSecond = 0.2
    /// The default elevation spike rate, metres per second; see
    /// ``elevationSpikeVerticalSpeedMetersPerSecond``.
    public static let defaultElevationSpikeVerticalSpeedMetersPerSecond = 5.0
    /// The default elevation spike slack, metres.
    public static let defaultElevationSpikeSlackMeters = 1.0

    /// Options with the given values; every parameter defaults to the running default.
    public init(
        movingSpeedThresholdMetersPerSecond: Double = StatsOptions.defaultMovingSpeedThresholdMetersPerSecond,
        movingVerticalSpeedThresholdMetersPerHour: Double =
            StatsOptions.defaultMovingVerticalSpeedThresholdMetersPerHour,
        movingVerticalWindowSeconds: Double = StatsOptions.defaultMovingVerticalWindowSeconds,
        movingVerticalMinimumHorizontalSpeedMetersPerSecond: Double =
            StatsOptions.defaultMovingVerticalMinimumHorizontalSpeedMetersPerSecond,
        elevationHysteresisMeters: Double = StatsOptions.defaultElevationHysteresisMeters,
        elevationSpikeVerticalSpeedMetersPerSecond: Double =
            StatsOptions.defaultElevationSpikeVerticalSpeedMetersPerSecond,
        elevationSpikeSlackMeters: Double = StatsOptions.defaultElevationSpikeSlackMeters,
        splitDistanceMeters: Double = StatsOptions.defaultSplitDistanceMeters,
        includeSplits: Bool = false,
        includeSegments: Bool = false
    ) {
        self.movingSpeedThresholdMetersPerSecond = movingSpeedThresholdMetersPerSecond
        self.movingVerticalSpeedThresholdMetersPerHour = movingVerticalSpeedThresholdMetersPerHour
        self.movingVerticalWindowSeconds = movingVerticalWindowSeconds
        self.movingVerticalMinimumHorizontalSpeedMetersPerSecond = movingVerticalMinimumHorizontalSpeedMetersPerSecond
        self.elevationHysteresisMeters = elevationHysteresisMeters
        self.elevationSpikeVerticalSpeedMetersPerSecond = elevationSpikeVerticalSpeedMetersPerSecond
        self.elevationSpikeSlackMeters = elevationSpikeSlackMeters
        self.splitDistanceMeters = splitDistanceMeters
        self.includeSplits = includeSplits
        self.includeSegments = includeSegments
    }

    enum CodingKeys: String, CodingKey {
        case movingSpeedThresholdMetersPerSecond = "moving_speed_threshold_m_s"
        case movingVerticalSpeedThresholdMetersPerHour = "moving_vertical_speed_threshold_m_h"
        case movingVerticalWindowSeconds = "moving_vertical_window_s"
        case movingVerticalMinimumHorizontalSpeedMetersPerSecond = "moving_vertical_min_horizontal_speed_m_s"
        case elevationHysteresisMeters = "elevation_hysteresis_m"
        case elevationSpikeVerticalSpeedMetersPerSecond = "elevation_spike_vertical_speed_m_s"
        case elevationSpikeSlackMeters = "elevation_spike_slack_m"
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
            movingVerticalSpeedThresholdMetersPerHour: try container.decodeIfPresent(
                Double.self, forKey: .movingVerticalSpeedThresholdMetersPerHour)
                ?? defaults.movingVerticalSpeedThresholdMetersPerHour,
            movingVerticalWindowSeconds: try container.decodeIfPresent(
                Double.self, forKey: .movingVerticalWindowSeconds) ?? defaults.movingVerticalWindowSeconds,
            movingVerticalMinimumHorizontalSpeedMetersPerSecond: try container.decodeIfPresent(
                Double.self, forKey: .movingVerticalMinimumHorizontalSpeedMetersPerSecond)
                ?? defaults.movingVerticalMinimumHorizontalSpeedMetersPerSecond,
            elevationHysteresisMeters: try container.decodeIfPresent(
                Double.self, forKey: .elevationHysteresisMeters) ?? defaults.elevationHysteresisMeters,
            elevationSpikeVerticalSpeedMetersPerSecond: try container.decodeIfPresent(
                Double.self, forKey: .elevationSpikeVerticalSpeedMetersPerSecond)
                ?? defaults.elevationSpikeVerticalSpeedMetersPerSecond,
            elevationSpikeSlackMeters: try container.decodeIfPresent(
                Double.self, forKey: .elevationSpikeSlackMeters) ?? defaults.elevationSpikeSlackMeters,
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
        try container.encode(
            movingVerticalSpeedThresholdMetersPerHour, forKey: .movingVerticalSpeedThresholdMetersPerHour)
        try container.encode(movingVerticalWindowSeconds, forKey: .movingVerticalWindowSeconds)
        try container.encode(
            movingVerticalMinimumHorizontalSpeedMetersPerSecond,
            forKey: .movingVerticalMinimumHorizontalSpeedMetersPerSecond)
        try container.encode(elevationHysteresisMeters, forKey: .elevationHysteresisMeters)
        try container.encode(
            elevationSpikeVerticalSpeedMetersPerSecond, forKey: .elevationSpikeVerticalSpeedMetersPerSecond)
        try container.encode(elevationSpikeSlackMeters, forKey: .elevationSpikeSlackMeters)
        try container.encode(splitDistanceMeters, forKey: .splitDistanceMeters)
        try container.encode(includeSplits, forKey: .includeSplits)
        try container.encode(includeSegments, forKey: .includeSegments)
    }
}
