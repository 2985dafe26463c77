import Foundation

/// One split of an activity: the stretch from one multiple of the split length to the next
/// (1 km by default), the last one shorter.
///
/// Split boundaries are placed along the distance, which counts only within segments; the pause
/// between two segments falls inside whichever split is under way. Where a boundary falls inside a
/// leg, its crossing point is interpolated along the leg: with `f = (boundary − distance before
/// the leg) / leg length`, the crossing time is `t0 + f · (t1 − t0)` and the crossing elevation
/// `e0 + f · (e1 − e0)`. (When an end of the leg has no time or elevation, the nearest points
/// before and after that have one, within the segment, stand in for the leg's ends.) The first
/// split starts at the activity's start time and the last one ends at its end time, so the splits'
/// elapsed times add up to the activity's. Times are read on the activity's forward-only timeline
/// (see ``ActivityStats/elapsedTimeSeconds``), so a split's time is never negative.
public struct Split: Sendable, Equatable, Codable {
    /// Position in the activity, from 1.
    public var index: Int
    /// Length of the split, metres: the split length, except for a shorter last split. A last
    /// split is kept however short, as long as it has a length.
    public var distanceMeters: Double
    /// Time from the split's start to its end, seconds, pauses between segments included; `nil`
    /// when either end has no time.
    public var elapsedTimeSeconds: Double?
    /// Time spent moving within the split, seconds, by the rule of
    /// ``ActivityStats/movingTimeSeconds``. A moving leg that straddles a boundary is shared
    /// between the two splits in proportion to its distance on either side. `nil` when no leg
    /// between timed points reaches into the split.
    public var movingTimeSeconds: Double?
    /// ``elapsedTimeSeconds`` per kilometre of ``distanceMeters``; `nil` without a positive
    /// elapsed time.
    public var paceSecondsPerKilometer: Double?
    /// Elevation gained within the split, metres: the share of the activity's hysteresis-filtered
    /// gain (see ``ActivityStats/elevationGainMeters``) climbed here.
    ///
    /// Each step the hysteresis counts is shared out over the stretch between the two points it
    /// was measured between, in proportion to distance, so the splits add up to the activity's
    /// gain. Elevation changes across a segment break are not counted. `nil` when no elevation
    /// reaches into the split.
    public var elevationGainMeters: Double?
    /// Sum of the drops, as for ``elevationGainMeters``.
    public var elevationLossMeters: Double?
    /// Distance from the activity's start to the end of the split, metres.
    public var endDistanceMeters: Double

    public init(
        index: Int, distanceMeters: Double, elapsedTimeSeconds: Double? = nil,
        movingTimeSeconds: Double? = nil, paceSecondsPerKilometer: Double? = nil,
        elevationGainMeters: Double? = nil, elevationLossMeters: Double? = nil,
        endDistanceMeters: Double
    ) {
        self.index = index
        self.distanceMeters = distanceMeters
        self.elapsedTimeSeconds = elapsedTimeSeconds
        self.movingTimeSeconds = movingTimeSeconds
        self.paceSecondsPerKilometer = paceSecondsPerKilometer
        self.elevationGainMeters = elevationGainMeters
        self.elevationLossMeters = elevationLossMeters
        self.endDistanceMeters = endDistanceMeters
    }

    enum CodingKeys: String, CodingKey {
        case index
        case distanceMeters = "distance_m"
        case elapsedTimeSeconds = "elapsed_time_s"
        case movingTimeSeconds = "moving_time_s"
        case paceSecondsPerKilometer = "pace_s_per_km"
        case elevationGainMeters = "elevation_gain_m"
        case elevationLossMeters = "elevation_loss_m"
        case endDistanceMeters = "end_distance_m"
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            index: try container.decode(Int.self, forKey: .index),
            distanceMeters: try container.decode(Double.self, forKey: .distanceMeters),
            elapsedTimeSeconds: try container.decodeIfPresent(Double.self, forKey: .elapsedTimeSeconds),
            movingTimeSeconds: try container.decodeIfPresent(Double.self, forKey: .movingTimeSeconds),
            paceSecondsPerKilometer: try container.decodeIfPresent(Double.self, forKey: .paceSecondsPerKilometer),
            elevationGainMeters: try container.decodeIfPresent(Double.self, forKey: .elevationGainMeters),
            elevationLossMeters: try container.decodeIfPresent(Double.self, forKey: .elevationLossMeters),
            endDistanceMeters: try container.decode(Double.self, forKey: .endDistanceMeters))
    }

    /// Encodes every key in the documented order; missing figures are written as `null`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
        try container.encode(JSONResolution.meters(distanceMeters), forKey: .distanceMeters)
        try container.encode(JSONResolution.seconds(elapsedTimeSeconds), forKey: .elapsedTimeSeconds)
        try container.encode(JSONResolution.seconds(movingTimeSeconds), forKey: .movingTimeSeconds)
        try container.encode(JSONResolution.pace(paceSecondsPerKilometer), forKey: .paceSecondsPerKilometer)
        try container.encode(JSONResolution.meters(elevationGainMeters), forKey: .elevationGainMeters)
        try container.encode(JSONResolution.meters(elevationLossMeters), forKey: .elevationLossMeters)
        try container.encode(JSONResolution.meters(endDistanceMeters), forKey: .endDistanceMeters)
    }
}
