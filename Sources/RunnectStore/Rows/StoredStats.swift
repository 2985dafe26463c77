import Foundation
import RunnectKit

/// A course's figures as the `stats` column keeps them: a storage format of its own, versioned,
/// so that the `--json` output (RunnectKit's `ActivityStats` keys and rounding) can change
/// without silently changing what is stored, and a stored row never needs the output's code to
/// be read.
///
/// Version 1 is the JSON that `ActivityStats` wrote when the column was made (schema version 1):
/// its keys are frozen here, spelled once, and a row without a `v` key is version 1. A later
/// version adds `"v": 2` and reads version 1 as it is.
package struct StoredStats: Codable, Sendable {
    /// The version written.
    static let version = 1

    package var stats: ActivityStats

    package init(_ stats: ActivityStats) {
        self.stats = stats
    }

    /// The stored names: version 1's, fixed.
    private enum Key: String, CodingKey {
        case version = "v"
        case points, segments
        case distance = "distance_m", distance3D = "distance_3d_m"
        case elapsed = "elapsed_time_s", moving = "moving_time_s"
        case averagePace = "avg_pace_s_per_km", movingPace = "moving_pace_s_per_km"
        case maxSpeed = "max_speed_m_s"
        case gain = "elevation_gain_m", loss = "elevation_loss_m"
        case minElevation = "min_elevation_m", maxElevation = "max_elevation_m"
        case bounds, start = "start_time", end = "end_time"
        case averageHeartRate = "avg_heart_rate_bpm", maxHeartRate = "max_heart_rate_bpm"
        case averageCadence = "avg_cadence_spm", maxCadence = "max_cadence_spm"
    }

    private enum BoundsKey: String, CodingKey {
        case minLatitude = "min_lat", minLongitude = "min_lon", maxLatitude = "max_lat", maxLongitude = "max_lon"
    }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let version = try c.decodeIfPresent(Int.self, forKey: .version) ?? 1
        guard version <= Self.version else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: c, debugDescription: "stats version \(version) is newer than \(Self.version)")
        }
        func number(_ key: Key) throws -> Double? { try c.decodeIfPresent(Double.self, forKey: key) }
        func time(_ key: Key) throws -> Date? { try RunnerFormat.decodeTimestamp(c, forKey: key) }
        var bounds: Bounds?
        if c.contains(.bounds), try !c.decodeNil(forKey: .bounds) {
            let b = try c.nestedContainer(keyedBy: BoundsKey.self, forKey: .bounds)
            bounds = Bounds(
                minLatitude: try b.decode(Double.self, forKey: .minLatitude),
                minLongitude: try b.decode(Double.self, forKey: .minLongitude),
                maxLatitude: try b.decode(Double.self, forKey: .maxLatitude),
                maxLongitude: try b.decode(Double.self, forKey: .maxLongitude))
        }
        stats = ActivityStats(
            points: try c.decode(Int.self, forKey: .points), segmentCount: try c.decode(Int.self, forKey: .segments),
            distanceMeters: try c.decode(Double.self, forKey: .distance), distance3DMeters: try number(.distance3D),
            elapsedTimeSeconds: try number(.elapsed), movingTimeSeconds: try number(.moving),
            averagePaceSecondsPerKilometer: try number(.averagePace),
            movingPaceSecondsPerKilometer: try number(.movingPace), maxSpeedMetersPerSecond: try number(.maxSpeed),
            elevationGainMeters: try number(.gain), elevationLossMeters: try number(.loss),
            minElevationMeters: try number(.minElevation), maxElevationMeters: try number(.maxElevation),
            bounds: bounds, startTime: try time(.start), endTime: try time(.end),
            averageHeartRateBPM: try number(.averageHeartRate), maxHeartRateBPM: try number(.maxHeartRate),
            averageCadence: try number(.averageCadence), maxCadence: try number(.maxCadence))
    }

    /// Version 1 as it was written: every key, `null` for a missing figure, figures at the
    /// resolution of the JSON output (millimetres, milliseconds), times as ISO 8601 UTC; no `v`
    /// key (a version 1 row never had one).
    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(stats.points, forKey: .points)
        try c.encode(stats.segmentCount, forKey: .segments)
        try c.encode(JSONResolution.meters(stats.distanceMeters), forKey: .distance)
        try c.encode(JSONResolution.meters(stats.distance3DMeters), forKey: .distance3D)
        try c.encode(JSONResolution.seconds(stats.elapsedTimeSeconds), forKey: .elapsed)
        try c.encode(JSONResolution.seconds(stats.movingTimeSeconds), forKey: .moving)
        try c.encode(JSONResolution.pace(stats.averagePaceSecondsPerKilometer), forKey: .averagePace)
        try c.encode(JSONResolution.pace(stats.movingPaceSecondsPerKilometer), forKey: .movingPace)
        try c.encode(JSONResolution.speed(stats.maxSpeedMetersPerSecond), forKey: .maxSpeed)
        try c.encode(JSONResolution.meters(stats.elevationGainMeters), forKey: .gain)
        try c.encode(JSONResolution.meters(stats.elevationLossMeters), forKey: .loss)
        try c.encode(JSONResolution.meters(stats.minElevationMeters), forKey: .minElevation)
        try c.encode(JSONResolution.meters(stats.maxElevationMeters), forKey: .maxElevation)
        if let bounds = stats.bounds {
            var b = c.nestedContainer(keyedBy: BoundsKey.self, forKey: .bounds)
            try b.encode(bounds.minLatitude, forKey: .minLatitude)
            try b.encode(bounds.minLongitude, forKey: .minLongitude)
            try b.encode(bounds.maxLatitude, forKey: .maxLatitude)
            try b.encode(bounds.maxLongitude, forKey: .maxLongitude)
        } else {
            try c.encodeNil(forKey: .bounds)
        }
        try c.encode(stats.startTime.map(RunnerFormat.timestamp), forKey: .start)
        try c.encode(stats.endTime.map(RunnerFormat.timestamp), forKey: .end)
        try c.encode(JSONResolution.rate(stats.averageHeartRateBPM), forKey: .averageHeartRate)
        try c.encode(JSONResolution.rate(stats.maxHeartRateBPM), forKey: .maxHeartRate)
        try c.encode(JSONResolution.rate(stats.averageCadence), forKey: .averageCadence)
        try c.encode(JSONResolution.rate(stats.maxCadence), forKey: .maxCadence)
    }

    /// The column's JSON text: sorted keys, as version 1 was written.
    package func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// One decoder for every row: making a `JSONDecoder` costs about as much as decoding small stats.
    private static let decoder = JSONDecoder()

    /// Reads the column's JSON bytes: as written, by ``StoredStatsScanner`` (3 times as fast);
    /// in any other form, by `JSONDecoder`.
    package static func decode(_ json: Data) throws -> StoredStats {
        let stored =
            if let stats = StoredStatsScanner.stats(json) { StoredStats(stats) } else {
                try decoder.decode(StoredStats.self, from: json)
            }
        if let problem = stored.implausibility { throw StoredStatsError.implausible(problem) }
        return stored
    }

    /// The largest magnitude of a stored figure: far beyond any run (a million kilometres; 31,000
    /// years), short of the values that print as nonsense (`1e308`).
    static let largestFigure = 1e12

    /// The figures ``implausibility`` checks, named, and whether each is never negative: made
    /// once, as stats are decoded for every course a page shows.
    private static let checkedFigures: [(String, KeyPath<ActivityStats, Double?> & Sendable, Bool)] = [
        ("distance", \.distanceMetersIfAny, true), ("3D distance", \.distance3DMeters, true),
        ("elapsed time", \.elapsedTimeSeconds, true), ("moving time", \.movingTimeSeconds, true),
        ("pace", \.averagePaceSecondsPerKilometer, true), ("moving pace", \.movingPaceSecondsPerKilometer, true),
        ("maximum speed", \.maxSpeedMetersPerSecond, true), ("elevation gain", \.elevationGainMeters, true),
        ("elevation loss", \.elevationLossMeters, true), ("lowest elevation", \.minElevationMeters, false),
        ("highest elevation", \.maxElevationMeters, false), ("heart rate", \.averageHeartRateBPM, true),
        ("maximum heart rate", \.maxHeartRateBPM, true), ("cadence", \.averageCadence, true),
        ("maximum cadence", \.maxCadence, true),
    ]

    /// What no store writes in these figures, named; `nil` when every figure is one a store may
    /// write: finite, within ``largestFigure``, distances, times, speeds and counts not negative,
    /// bounds on the globe.
    var implausibility: String? {
        let s = stats
        guard s.points >= 0, s.segmentCount >= 0 else { return "a negative count" }
        for (name, figure, nonNegative) in Self.checkedFigures {
            guard let value = s[keyPath: figure] else { continue }
            guard value.isFinite, abs(value) <= Self.largestFigure, !nonNegative || value >= 0 else {
                return "\(name) \(value)"
            }
        }
        if let b = s.bounds {
            let ok =
                [b.minLatitude, b.maxLatitude].allSatisfy { abs($0) <= 90 }
                && [b.minLongitude, b.maxLongitude].allSatisfy { abs($0) <= 180 }
            guard ok else { return "bounds off the globe" }
        }
        return nil
    }
}

/// Stored figures that decode but that no store writes.
enum StoredStatsError: Error, CustomStringConvertible {
    case implausible(String)

    var description: String {
        switch self {
        case .implausible(let problem): "stored figures hold an impossible \(problem)"
        }
    }
}

extension ActivityStats {
    /// ``distanceMeters`` as the optional the other figures are, for ``StoredStats``'s checks.
    fileprivate var distanceMetersIfAny: Double? { distanceMeters }
}
