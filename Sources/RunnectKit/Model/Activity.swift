import Foundation

/// Everything read from one file or one list of tapped points: metadata, tracks, routes and
/// waypoints, in the order the file gives them.
public struct Activity: Equatable, Sendable, Codable {
    /// The format the content was read as (detected from the content, not the file name).
    public var format: ActivityFormat
    /// Name, description, time and creator of the whole file.
    public var metadata: ActivityMetadata
    /// Recorded tracks; each holds one or more segments (a new segment after the recording paused).
    public var tracks: [Track]
    /// Planned routes (GPX `<rte>`), or the legs of a drawn course.
    public var routes: [Route]
    /// Points of interest (GPX `<wpt>`).
    public var waypoints: [Waypoint]
    /// Things the reader tolerated and the user should know (zone-less times taken as UTC, …).
    public var warnings: [String]
    /// Laps as the device recorded them (TCX `<Lap>`, FIT `lap` messages), with its own totals.
    public var laps: [Lap]
    /// The device's own totals for the whole activity (TCX lap sums, FIT `session`), reported
    /// beside Runnect's figures; `nil` for formats that carry none (GPX, tapped points).
    public var deviceTotals: DeviceTotals?
    /// Times the device's timer was stopped (FIT timer stop → start events), in order and not
    /// overlapping. A leg that reaches into one never counts as moving time; its distance still
    /// counts, as it does in the device's GPX export of the same run.
    public var timerPauses: [DateInterval]

    public init(
        format: ActivityFormat, metadata: ActivityMetadata = ActivityMetadata(),
        tracks: [Track] = [], routes: [Route] = [], waypoints: [Waypoint] = [],
        warnings: [String] = [], laps: [Lap] = [], deviceTotals: DeviceTotals? = nil,
        timerPauses: [DateInterval] = []
    ) {
        self.format = format
        self.metadata = metadata
        self.tracks = tracks
        self.routes = routes
        self.waypoints = waypoints
        self.warnings = warnings
        self.laps = laps
        self.deviceTotals = deviceTotals
        self.timerPauses = timerPauses
    }

    /// The segments a course is measured on: every track segment, or, for a file without track
    /// points (a planned route), one segment per route.
    public var courseSegments: [[TrackPoint]] {
        let trackSegments = tracks.flatMap { $0.segments.map(\.points) }
        if trackSegments.contains(where: { !$0.isEmpty }) || routes.allSatisfy(\.points.isEmpty) {
            return trackSegments
        }
        return routes.map(\.points)
    }

    /// Whether ``courseSegments`` come from routes rather than tracks.
    public var isMeasuredOnRoutes: Bool {
        !tracks.contains { $0.segments.contains { !$0.points.isEmpty } }
            && routes.contains { !$0.points.isEmpty }
    }
}

/// The formats Runnect reads.
public enum ActivityFormat: String, Sendable, Codable, CaseIterable {
    case gpx10 = "gpx-1.0"
    case gpx11 = "gpx-1.1"
    /// A GPX document without a version attribute.
    case gpx
    /// Tapped points: a `lat,lon lat,lon …` list.
    case pointsText = "points"
    /// Tapped points: a JSON array of `{"latitude":…,"longitude":…}` objects or `[lat, lon]` pairs.
    case pointsJSON = "points-json"
    /// Tapped points: a GeoJSON `LineString` (or a Feature / FeatureCollection holding one).
    case geoJSON = "geojson"
    /// Garmin Training Center XML (activities or courses).
    case tcx
    /// Garmin's binary Flexible and Interoperable Data Transfer protocol.
    case fit
}

/// File-level descriptive data.
public struct ActivityMetadata: Equatable, Sendable, Codable {
    public var name: String?
    public var description: String?
    public var time: Date?
    /// The program or device that wrote the file.
    public var creator: String?

    public init(
        name: String? = nil, description: String? = nil, time: Date? = nil,
        creator: String? = nil
    ) {
        self.name = name
        self.description = description
        self.time = time
        self.creator = creator
    }
}

/// A recorded track: one or more segments.
public struct Track: Equatable, Sendable, Codable {
    public var name: String?
    /// The activity type as the file says it (`running`, `9`, …).
    public var type: String?
    public var segments: [TrackSegment]

    public init(name: String? = nil, type: String? = nil, segments: [TrackSegment] = []) {
        self.name = name
        self.type = type
        self.segments = segments
    }
}

/// A continuous run of points; the gap to the next segment is a pause and is not measured.
public struct TrackSegment: Equatable, Sendable, Codable {
    public var points: [TrackPoint]

    public init(points: [TrackPoint] = []) {
        self.points = points
    }
}

/// A planned route: points joined by straight geodesic legs.
public struct Route: Equatable, Sendable, Codable {
    public var name: String?
    public var points: [TrackPoint]

    public init(name: String? = nil, points: [TrackPoint] = []) {
        self.name = name
        self.points = points
    }
}

/// A named point of interest.
public struct Waypoint: Equatable, Sendable, Codable {
    public var name: String?
    public var point: TrackPoint

    public init(name: String? = nil, point: TrackPoint) {
        self.name = name
        self.point = point
    }
}

extension Activity {
    /// The name a person would call it by: the file's name, else its first track's or route's.
    public var displayName: String? {
        metadata.name ?? tracks.lazy.compactMap(\.name).first ?? routes.lazy.compactMap(\.name).first
    }
}
