import Foundation

/// Distance, time, pace, elevation, heart rate and extent of an activity: what a runner reads
/// after a run, and what `runnect stats --json` writes.
///
/// Computed by ``init(segments:timerPauses:deviceTotals:options:)`` (or ``Activity/stats(options:)``) over the segments of
/// a course. Missing data is `nil` and never 0: a file without times has a distance and bounds but
/// no time or pace, one without elevation has no elevation figures.
///
/// In JSON every key is present, with `null` for a missing figure; only `splits` and
/// `segment_stats` are left out unless they were asked for. (Foundation's `JSONEncoder` on Linux
/// writes keys in an order that changes from run to run: use `.sortedKeys` for stable output.)
public struct ActivityStats: Sendable, Equatable, Codable {
    /// Number of points in all segments, with or without a position.
    public var points: Int
    /// Number of segments, empty ones included.
    public var segmentCount: Int
    /// Length of the activity, metres: the sum of the WGS84 geodesic legs between consecutive
    /// points *within* each segment.
    ///
    /// The gap from one segment to the next is a pause in recording and is not counted. Points
    /// without a usable position (non-finite coordinates, latitude outside ±90°) are passed over:
    /// the leg runs from the point before them to the point after.
    public var distanceMeters: Double
    /// Length with the climbs and descents, metres: over the same legs, √(d² + Δe²) where both
    /// ends have a kept elevation (see ``elevationGainMeters``), plus the plain length d of legs
    /// where one does not.
    ///
    /// `nil` when no point has an elevation.
    public var distance3DMeters: Double?
    /// Time from the first to the last timed point of the activity in document order, seconds,
    /// counting only time that moves forward: never negative.
    ///
    /// Pauses, within or between segments, are included. Where the file's times go back, a stray timestamp (up to 5 points out of line with the points around them,
    /// such as one fix stamped a year back) is left out, so it adds nothing, and a leg across a
    /// clock set back counts as no time while the time on either side of it counts. A leg within a
    /// segment that jumps ahead by more than any pause can last is a clock set forward (a fix
    /// stamped in 2085 at the end of a run) and counts as no time too: more than the device's own
    /// time (``DeviceTotals/elapsedTimeSeconds``, else ``DeviceTotals/timerTimeSeconds``) and a
    /// day, or more than 366 days in a file without it. Then ``endTime`` minus ``startTime`` is
    /// not the elapsed time, and the activity carries a warning naming each step. 0 with a single
    /// timed point, `nil` with none.
    public var elapsedTimeSeconds: Double?
    /// Time spent moving, seconds.
    ///
    /// Within each segment, every pair of consecutive timed points forms a leg whose distance is
    /// the geodesic distance along the points between them (untimed points included). A leg
    /// counts as moving when its time (on the forward-only timeline of ``elapsedTimeSeconds``) is
    /// positive and its distance divided by its time is above
    /// ``StatsOptions/movingSpeedThresholdMetersPerSecond`` (30 min/mile by default); its time
    /// then counts in full. Legs with zero time, or going back in time, never count (nor give a
    /// speed), and nothing between two segments does (a segment break is a pause), nor does a leg
    /// that reaches into one of the activity's ``Activity/timerPauses`` (a FIT timer stop). A fix
    /// repeated exactly (a 0 m leg: the device had no new position) folds its time into the next
    /// leg instead of counting as a stop.
    ///
    /// On steep ground a slower leg still moves: when, over a window of
    /// ``StatsOptions/movingVerticalWindowSeconds`` (60 s) centred on it, the kept elevation (see
    /// ``elevationGainMeters``) changes by at least
    /// ``StatsOptions/movingVerticalSpeedThresholdMetersPerHour`` (400 m/h) net and the track covers
    /// at least ``StatsOptions/movingVerticalMinimumHorizontalSpeedMetersPerSecond`` (0.2 m/s). The
    /// window is cut at the segment's first and last elevation and never reaches over a timer
    /// pause; one shorter than half its length never applies. A runner hiking up a mountain moves;
    /// one standing still while the altitude drifts does not. `nil` when no segment has two timed
    /// points.
    public var movingTimeSeconds: Double?
    /// Elapsed time per kilometre, seconds: ``elapsedTimeSeconds`` divided by the distance
    /// covered between the first and the last timed point.
    ///
    /// When the first and last points have times, as in any recorded run, that distance is
    /// ``distanceMeters``. A file timed only in part (a GPSBabel conversion with 5 timed points
    /// out of 296) would otherwise divide the time of its timed stretch by the length of the
    /// whole file. `nil` without a positive elapsed time or without distance between the timed
    /// points.
    public var averagePaceSecondsPerKilometer: Double?
    /// Moving time per kilometre of *moving distance*, seconds, where the moving distance is the
    /// distance of the legs that counted as moving (see ``movingTimeSeconds``); `nil` without
    /// moving time or moving distance.
    public var movingPaceSecondsPerKilometer: Double?
    /// Fastest speed held for at least 10 s and 5 legs, metres per second, with GPS spikes
    /// filtered out.
    ///
    /// Leg speeds between timed points are first despiked (each replaced by the median of the five
    /// legs around it), then averaged over sliding windows of consecutive legs within one segment
    /// lasting at least 10 s and holding at least 5 legs, whichever is longer; the fastest window
    /// wins. A single fix 60 m off the path in 1 s data leaves no trace, where the fastest leg
    /// would read 60 m/s. Windows never have a zero or negative duration (a time that does not
    /// advance is treated like a missing one). When no segment is long enough for a window, the
    /// despiked speed of the fastest whole segment is used. `nil` without a timed leg.
    public var maxSpeedMetersPerSecond: Double?
    /// Elevation gain, metres, counting only changes of at least
    /// ``StatsOptions/elevationHysteresisMeters`` (2 m by default).
    ///
    /// Per segment, spikes are left out first: an elevation is kept when it lies within
    /// ``StatsOptions/elevationSpikeVerticalSpeedMetersPerSecond`` (5 m/s) times the time since the
    /// last kept elevation, plus ``StatsOptions/elevationSpikeSlackMeters`` (1 m), of it; an
    /// elevation recorded strictly inside a timer pause is left out too. What is left out counts
    /// as no elevation for every figure (gain, loss, lowest, highest, 3D distance, splits).
    ///
    /// Then a reference elevation starts at the first kept elevation; each next one `e` adds
    /// `e − ref` to the gain when `e − ref ≥ H`, adds `ref − e` to the loss when `ref − e ≥ H`, and
    /// becomes the reference in either case; smaller changes leave the reference alone. The naive
    /// sum of every step would count GPS and barometer jitter: on the Forerunner 945 Sloatsburg run
    /// it gives +431 m where the watch says +347 m, and the 2 m default gives +350 m. Points
    /// without elevation are skipped. `nil` when no point has a kept one.
    public var elevationGainMeters: Double?
    /// Elevation loss, metres, by the rule of ``elevationGainMeters`` (Sloatsburg: −371 m, as
    /// the watch says). `nil` when no point has an elevation.
    public var elevationLossMeters: Double?
    /// Lowest kept elevation of any point (spikes left out, see ``elevationGainMeters``), metres;
    /// `nil` when no point has one.
    public var minElevationMeters: Double?
    /// Highest kept elevation of any point (spikes left out, see ``elevationGainMeters``), metres;
    /// `nil` when no point has one.
    public var maxElevationMeters: Double?
    /// The box holding every positioned point, correct across the antimeridian (see ``Bounds``);
    /// `nil` when no point has a position.
    public var bounds: Bounds?
    /// Time of the first timed point in document order (JSON: ISO 8601 UTC, `…Z`).
    public var startTime: Date?
    /// Time of the last timed point in document order (JSON: ISO 8601 UTC, `…Z`).
    public var endTime: Date?
    /// Mean heart rate over the points that have one (a plain sample mean, not weighted by
    /// time), beats per minute; `nil` when none has.
    public var averageHeartRateBPM: Double?
    /// Highest heart rate recorded, beats per minute; `nil` when none is.
    public var maxHeartRateBPM: Double?
    /// Mean cadence over the points that have one (sample mean), as recorded.
    ///
    /// Cadence is kept in the device's own unit: Garmin-style devices record steps per minute of
    /// *one* foot (about 85–95 for running), others both feet (170–190). `nil` when no point has one.
    public var averageCadence: Double?
    /// Highest cadence recorded, in the device's unit (see ``averageCadence``); `nil` when none is.
    public var maxCadence: Double?
    /// Splits of ``StatsOptions/splitDistanceMeters`` (see ``Split``), when
    /// ``StatsOptions/includeSplits`` was set; otherwise `nil` and left out of the JSON.
    public var splits: [Split]?
    /// Figures for every segment (JSON `segment_stats`), when ``StatsOptions/includeSegments``
    /// was set; otherwise `nil` and left out of the JSON.
    public var perSegment: [SegmentStats]?

    /// Stats with the given figures; everything not given is missing.
    public init(
        points: Int = 0, segmentCount: Int = 0, distanceMeters: Double = 0,
        distance3DMeters: Double? = nil, elapsedTimeSeconds: Double? = nil,
        movingTimeSeconds: Double? = nil, averagePaceSecondsPerKilometer: Double? = nil,
        movingPaceSecondsPerKilometer: Double? = nil, maxSpeedMetersPerSecond: Double? = nil,
        elevationGainMeters: Double? = nil, elevationLossMeters: Double? = nil,
        minElevationMeters: Double? = nil, maxElevationMeters: Double? = nil,
        bounds: Bounds? = nil, startTime: Date? = nil, endTime: Date? = nil,
        averageHeartRateBPM: Double? = nil, maxHeartRateBPM: Double? = nil,
        averageCadence: Double? = nil, maxCadence: Double? = nil,
        splits: [Split]? = nil, perSegment: [SegmentStats]? = nil
    ) {
        self.points = points
        self.segmentCount = segmentCount
        self.distanceMeters = distanceMeters
        self.distance3DMeters = distance3DMeters
        self.elapsedTimeSeconds = elapsedTimeSeconds
        self.movingTimeSeconds = movingTimeSeconds
        self.averagePaceSecondsPerKilometer = averagePaceSecondsPerKilometer
        self.movingPaceSecondsPerKilometer = movingPaceSecondsPerKilometer
        self.maxSpeedMetersPerSecond = maxSpeedMetersPerSecond
        self.elevationGainMeters = elevationGainMeters
        self.elevationLossMeters = elevationLossMeters
        self.minElevationMeters = minElevationMeters
        self.maxElevationMeters = maxElevationMeters
        self.bounds = bounds
        self.startTime = startTime
        self.endTime = endTime
        self.averageHeartRateBPM = averageHeartRateBPM
        self.maxHeartRateBPM = maxHeartRateBPM
        self.averageCadence = averageCadence
        self.maxCadence = maxCadence
        self.splits = splits
        self.perSegment = perSegment
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case points
        case segmentCount = "segments"
        case distanceMeters = "distance_m"
        case distance3DMeters = "distance_3d_m"
        case elapsedTimeSeconds = "elapsed_time_s"
        case movingTimeSeconds = "moving_time_s"
        case averagePaceSecondsPerKilometer = "avg_pace_s_per_km"
        case movingPaceSecondsPerKilometer = "moving_pace_s_per_km"
        case maxSpeedMetersPerSecond = "max_speed_m_s"
        case elevationGainMeters = "elevation_gain_m"
        case elevationLossMeters = "elevation_loss_m"
        case minElevationMeters = "min_elevation_m"
        case maxElevationMeters = "max_elevation_m"
        case bounds
        case startTime = "start_time"
        case endTime = "end_time"
        case averageHeartRateBPM = "avg_heart_rate_bpm"
        case maxHeartRateBPM = "max_heart_rate_bpm"
        case averageCadence = "avg_cadence_spm"
        case maxCadence = "max_cadence_spm"
        case splits
        case perSegment = "segment_stats"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            points: try c.decode(Int.self, forKey: .points),
            segmentCount: try c.decode(Int.self, forKey: .segmentCount),
            distanceMeters: try c.decode(Double.self, forKey: .distanceMeters),
            distance3DMeters: try c.decodeIfPresent(Double.self, forKey: .distance3DMeters),
            elapsedTimeSeconds: try c.decodeIfPresent(Double.self, forKey: .elapsedTimeSeconds),
            movingTimeSeconds: try c.decodeIfPresent(Double.self, forKey: .movingTimeSeconds),
            averagePaceSecondsPerKilometer: try c.decodeIfPresent(Double.self, forKey: .averagePaceSecondsPerKilometer),
            movingPaceSecondsPerKilometer: try c.decodeIfPresent(Double.self, forKey: .movingPaceSecondsPerKilometer),
            maxSpeedMetersPerSecond: try c.decodeIfPresent(Double.self, forKey: .maxSpeedMetersPerSecond),
            elevationGainMeters: try c.decodeIfPresent(Double.self, forKey: .elevationGainMeters),
            elevationLossMeters: try c.decodeIfPresent(Double.self, forKey: .elevationLossMeters),
            minElevationMeters: try c.decodeIfPresent(Double.self, forKey: .minElevationMeters),
            maxElevationMeters: try c.decodeIfPresent(Double.self, forKey: .maxElevationMeters),
            bounds: try c.decodeIfPresent(Bounds.self, forKey: .bounds),
            startTime: try RunnerFormat.decodeTimestamp(c, forKey: .startTime),
            endTime: try RunnerFormat.decodeTimestamp(c, forKey: .endTime),
            averageHeartRateBPM: try c.decodeIfPresent(Double.self, forKey: .averageHeartRateBPM),
            maxHeartRateBPM: try c.decodeIfPresent(Double.self, forKey: .maxHeartRateBPM),
            averageCadence: try c.decodeIfPresent(Double.self, forKey: .averageCadence),
            maxCadence: try c.decodeIfPresent(Double.self, forKey: .maxCadence),
            splits: try c.decodeIfPresent([Split].self, forKey: .splits),
            perSegment: try c.decodeIfPresent([SegmentStats].self, forKey: .perSegment))
    }

    /// Encodes every key in the documented order, `null` for a missing figure, times as ISO 8601
    /// UTC strings; `splits` and `segment_stats` only when present.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        // Optionals go through encode(_:forKey:), not encodeIfPresent: nil must be written as null.
        try c.encode(points, forKey: .points)
        try c.encode(segmentCount, forKey: .segmentCount)
        try c.encode(JSONResolution.meters(distanceMeters), forKey: .distanceMeters)
        try c.encode(JSONResolution.meters(distance3DMeters), forKey: .distance3DMeters)
        try c.encode(JSONResolution.seconds(elapsedTimeSeconds), forKey: .elapsedTimeSeconds)
        try c.encode(JSONResolution.seconds(movingTimeSeconds), forKey: .movingTimeSeconds)
        try c.encode(JSONResolution.pace(averagePaceSecondsPerKilometer), forKey: .averagePaceSecondsPerKilometer)
        try c.encode(JSONResolution.pace(movingPaceSecondsPerKilometer), forKey: .movingPaceSecondsPerKilometer)
        try c.encode(JSONResolution.speed(maxSpeedMetersPerSecond), forKey: .maxSpeedMetersPerSecond)
        try c.encode(JSONResolution.meters(elevationGainMeters), forKey: .elevationGainMeters)
        try c.encode(JSONResolution.meters(elevationLossMeters), forKey: .elevationLossMeters)
        try c.encode(JSONResolution.meters(minElevationMeters), forKey: .minElevationMeters)
        try c.encode(JSONResolution.meters(maxElevationMeters), forKey: .maxElevationMeters)
        try c.encode(bounds, forKey: .bounds)
        try c.encode(startTime.map(RunnerFormat.timestamp), forKey: .startTime)
        try c.encode(endTime.map(RunnerFormat.timestamp), forKey: .endTime)
        try c.encode(JSONResolution.rate(averageHeartRateBPM), forKey: .averageHeartRateBPM)
        try c.encode(JSONResolution.rate(maxHeartRateBPM), forKey: .maxHeartRateBPM)
        try c.encode(JSONResolution.rate(averageCadence), forKey: .averageCadence)
        try c.encode(JSONResolution.rate(maxCadence), forKey: .maxCadence)
        try c.encodeIfPresent(splits, forKey: .splits)
        try c.encodeIfPresent(perSegment, forKey: .perSegment)
    }
}
