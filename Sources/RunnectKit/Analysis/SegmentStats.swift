import Foundation

/// The figures of one segment of an activity, by the same rules as ``ActivityStats``.
///
/// Listed in ``ActivityStats/perSegment`` (JSON `segment_stats`) when
/// ``StatsOptions/includeSegments`` is set, one per segment, empty segments included.
public struct SegmentStats: Sendable, Equatable, Codable {
    /// Number of points in the segment.
    public var points: Int
    /// Sum of the segment's geodesic legs, metres.
    public var distanceMeters: Double
    /// Length with elevation changes, metres (see ``ActivityStats/distance3DMeters``); `nil` when
    /// no point of the segment has an elevation.
    public var distance3DMeters: Double?
    /// First to last timed point of the segment, seconds, counting only time that moves forward
    /// (see ``ActivityStats/elapsedTimeSeconds``): 0 with one timed point, `nil` with none.
    public var elapsedTimeSeconds: Double?
    /// Moving time of the segment (see ``ActivityStats/movingTimeSeconds``); `nil` with fewer
    /// than two timed points.
    public var movingTimeSeconds: Double?
    /// Elevation gain with hysteresis, metres; `nil` when no point has an elevation.
    public var elevationGainMeters: Double?
    /// Elevation loss with hysteresis, metres; `nil` when no point has an elevation.
    public var elevationLossMeters: Double?
    /// Time of the segment's first timed point.
    public var startTime: Date?
    /// Time of the segment's last timed point.
    public var endTime: Date?

    public init(
        points: Int, distanceMeters: Double, distance3DMeters: Double? = nil,
        elapsedTimeSeconds: Double? = nil, movingTimeSeconds: Double? = nil,
        elevationGainMeters: Double? = nil, elevationLossMeters: Double? = nil,
        startTime: Date? = nil, endTime: Date? = nil
    ) {
        self.points = points
        self.distanceMeters = distanceMeters
        self.distance3DMeters = distance3DMeters
        self.elapsedTimeSeconds = elapsedTimeSeconds
        self.movingTimeSeconds = movingTimeSeconds
        self.elevationGainMeters = elevationGainMeters
        self.elevationLossMeters = elevationLossMeters
        self.startTime = startTime
        self.endTime = endTime
    }

    init(_ segment: SegmentMeasurement) {
        var elapsed: Double?
        if let start = segment.firstTime, let end = segment.lastTime {
            elapsed = end.timeIntervalSince(start)
        }
        self.init(
            points: segment.points.count,
            distanceMeters: segment.distanceMeters,
            distance3DMeters: segment.hasElevation ? segment.distance3DMeters : nil,
            elapsedTimeSeconds: elapsed,
            movingTimeSeconds: segment.timedLegs.isEmpty ? nil : segment.movingSeconds,
            elevationGainMeters: segment.hasElevation ? segment.elevationGainMeters : nil,
            elevationLossMeters: segment.hasElevation ? segment.elevationLossMeters : nil,
            startTime: segment.firstRecordedTime,
            endTime: segment.lastRecordedTime)
    }

    enum CodingKeys: String, CodingKey {
        case points
        case distanceMeters = "distance_m"
        case distance3DMeters = "distance_3d_m"
        case elapsedTimeSeconds = "elapsed_time_s"
        case movingTimeSeconds = "moving_time_s"
        case elevationGainMeters = "elevation_gain_m"
        case elevationLossMeters = "elevation_loss_m"
        case startTime = "start_time"
        case endTime = "end_time"
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            points: try container.decode(Int.self, forKey: .points),
            distanceMeters: try container.decode(Double.self, forKey: .distanceMeters),
            distance3DMeters: try container.decodeIfPresent(Double.self, forKey: .distance3DMeters),
            elapsedTimeSeconds: try container.decodeIfPresent(Double.self, forKey: .elapsedTimeSeconds),
            movingTimeSeconds: try container.decodeIfPresent(Double.self, forKey: .movingTimeSeconds),
            elevationGainMeters: try container.decodeIfPresent(Double.self, forKey: .elevationGainMeters),
            elevationLossMeters: try container.decodeIfPresent(Double.self, forKey: .elevationLossMeters),
            startTime: try RunnerFormat.decodeTimestamp(container, forKey: .startTime),
            endTime: try RunnerFormat.decodeTimestamp(container, forKey: .endTime))
    }

    /// Encodes every key in the documented order; missing figures are written as `null`, times as
    /// ISO 8601 UTC strings.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(points, forKey: .points)
        try container.encode(JSONResolution.meters(distanceMeters), forKey: .distanceMeters)
        try container.encode(JSONResolution.meters(distance3DMeters), forKey: .distance3DMeters)
        try container.encode(JSONResolution.seconds(elapsedTimeSeconds), forKey: .elapsedTimeSeconds)
        try container.encode(JSONResolution.seconds(movingTimeSeconds), forKey: .movingTimeSeconds)
        try container.encode(JSONResolution.meters(elevationGainMeters), forKey: .elevationGainMeters)
        try container.encode(JSONResolution.meters(elevationLossMeters), forKey: .elevationLossMeters)
        try container.encode(startTime.map(RunnerFormat.timestamp), forKey: .startTime)
        try container.encode(endTime.map(RunnerFormat.timestamp), forKey: .endTime)
    }
}
