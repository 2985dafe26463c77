import Foundation
import RunnectKit

/// The compact binary form a RunnectKit `Activity` is stored in (the `course.geometry` blob).
///
/// Every value survives exactly: doubles are stored as their bit patterns, times as the bits of
/// `timeIntervalSinceReferenceDate`, so `decode(encode(a)) == a`. Little-endian throughout:
///
/// ```
/// activity  = "RNC1" string(format) metadata u32(n) string×n (warnings)
///             u32(n) track×n  u32(n) route×n  u32(n) waypoint×n
/// metadata  = u8(flags: name 1, description 2, time 4, creator 8) [string] [string] [f64] [string]
/// track     = u8(flags: name 1, type 2) [string] [string] u32(n) segment×n
/// segment   = u32(n) point×n
/// route     = u8(flags: name 1) [string] u32(n) point×n
/// waypoint  = u8(flags: name 1) [string] point
/// point     = u8(flags: elevation 1, time 2, heart rate 4, cadence 8, temperature 16)
///             f64(latitude) f64(longitude) [f64]… (the optional fields present, in flag order)
/// string    = u32(byte count) UTF-8 bytes
/// ```
///
/// Version 2 ("RNC2") adds the device's own figures: two more point flags, device speed 32 and
/// device distance 64 (their f64s follow the others), and a device part after the waypoints. An
/// activity without any of them is still written as version 1, and both versions are read:
///
/// ```
/// device    = u8(flags: totals 1) [totals] u32(n) lap×n
/// lap       = u8(flags: start time 1) [f64] totals
/// totals    = u8(flags: distance 1, elapsed 2, timer 4, ascent 8, descent 16, calories 32, sport 64)
///             [f64]… [string] (the fields present, in flag order)
/// ```
///
/// Version 3 ("RNC3", for records of runs) is version 2 followed by the timer's pauses, written
/// only when there are some:
///
/// ```
/// pauses    = u32(n) (f64(start) f64(end))×n
/// ```
///
/// A point takes 17 bytes plus 8 per optional field present: 17 for a tap, 49 for a watch fix
/// with elevation, time, heart rate and cadence (JSON of the same point takes about 150).
///
/// The blob is untrusted input to ``decode(_:)``: every count and length is checked against the
/// bytes that remain before anything is allocated, unknown flag bits and trailing bytes are
/// refused, and strings must be valid UTF-8.
package enum ActivityCodec {
    static let magic: [UInt8] = Array("RNC".utf8)
    /// The version written for activities without device figures (every blob before laps).
    static let version: UInt8 = UInt8(ascii: "1")
    /// The version written for activities with laps or device totals.
    static let deviceVersion: UInt8 = UInt8(ascii: "2")
    /// The version written for activities with timer pauses.
    static let pausesVersion: UInt8 = UInt8(ascii: "3")

    /// Smallest encodings, used to bound counts before allocating.
    static let minimumPointBytes = 17
    static let minimumStringBytes = 4
    static let minimumTrackBytes = 1 + 4
    static let minimumSegmentBytes = 4
    static let minimumRouteBytes = 1 + 4
    static let minimumWaypointBytes = 1 + minimumPointBytes
    static let minimumLapBytes = 1 + 1

    // MARK: - Encoding

    /// Encodes `activity`.
    /// - Throws: ``ActivityCodecError/tooLarge(_:)`` when a string or a list holds more than
    ///   2³² − 1 bytes or items.
    static func encode(_ activity: Activity) throws -> Data {
        var writer = Writer()
        let pointCount =
            activity.tracks.reduce(0) { $0 + $1.segments.reduce(0) { $0 + $1.points.count } }
            + activity.routes.reduce(0) { $0 + $1.points.count } + activity.waypoints.count
        writer.bytes.reserveCapacity(64 + pointCount * 33)
        let hasPauses = !activity.timerPauses.isEmpty
        let hasDevice =
            hasPauses || activity.deviceTotals != nil || !activity.laps.isEmpty || Self.hasDevicePoints(activity)
        writer.bytes.append(contentsOf: magic)
        writer.bytes.append(hasPauses ? pausesVersion : hasDevice ? deviceVersion : version)
        try writer.string(activity.format.rawValue)

        let metadata = activity.metadata
        writer.flags([metadata.name != nil, metadata.description != nil, metadata.time != nil, metadata.creator != nil])
        try metadata.name.map { try writer.string($0) }
        try metadata.description.map { try writer.string($0) }
        metadata.time.map { writer.double($0.timeIntervalSinceReferenceDate) }
        try metadata.creator.map { try writer.string($0) }

        try writer.count(activity.warnings.count, of: "warnings")
        for warning in activity.warnings { try writer.string(warning) }

        try writer.count(activity.tracks.count, of: "tracks")
        for track in activity.tracks {
            writer.flags([track.name != nil, track.type != nil])
            try track.name.map { try writer.string($0) }
            try track.type.map { try writer.string($0) }
            try writer.count(track.segments.count, of: "segments")
            for segment in track.segments {
                try writer.count(segment.points.count, of: "points")
                for point in segment.points { writer.point(point) }
            }
        }

        try writer.count(activity.routes.count, of: "routes")
        for route in activity.routes {
            writer.flags([route.name != nil])
            try route.name.map { try writer.string($0) }
            try writer.count(route.points.count, of: "points")
            for point in route.points { writer.point(point) }
        }

        try writer.count(activity.waypoints.count, of: "waypoints")
        for waypoint in activity.waypoints {
            writer.flags([waypoint.name != nil])
            try waypoint.name.map { try writer.string($0) }
            writer.point(waypoint.point)
        }

        if hasDevice {
            writer.flags([activity.deviceTotals != nil])
            try activity.deviceTotals.map { try writer.totals($0) }
            try writer.count(activity.laps.count, of: "laps")
            for lap in activity.laps {
                writer.flags([lap.startTime != nil])
                lap.startTime.map { writer.double($0.timeIntervalSinceReferenceDate) }
                try writer.totals(lap.totals)
            }
        }
        if hasPauses {
            try writer.count(activity.timerPauses.count, of: "pauses")
            for pause in activity.timerPauses {
                writer.double(pause.start.timeIntervalSinceReferenceDate)
                writer.double(pause.end.timeIntervalSinceReferenceDate)
            }
        }
        return Data(writer.bytes)
    }

    /// Whether a point carries the device's own speed or distance (version 2 only).
    private static func hasDevicePoints(_ activity: Activity) -> Bool {
        func device(_ point: TrackPoint) -> Bool {
            point.deviceSpeedMetersPerSecond != nil || point.deviceDistanceMeters != nil
        }
        return activity.tracks.contains { $0.segments.contains { $0.points.contains(where: device) } }
            || activity.routes.contains { $0.points.contains(where: device) }
            || activity.waypoints.contains { device($0.point) }
    }

    enum PointFlags {
        static let elevation: UInt8 = 1
        static let time: UInt8 = 2
        static let heartRate: UInt8 = 4
        static let cadence: UInt8 = 8
        static let temperature: UInt8 = 16
        static let deviceSpeed: UInt8 = 32
        static let deviceDistance: UInt8 = 64
        /// The flags of version 1, and of version 2.
        static let version1: UInt8 = 31
        static let version2: UInt8 = 127
    }

    // MARK: - Decoding

    /// Decodes a blob written by ``encode(_:)``.
    /// - Throws: ``ActivityCodecError`` naming the first thing wrong and its byte offset.
    package static func decode(_ data: Data) throws -> Activity {
        try data.withUnsafeBytes { raw in
            var reader = Reader(raw)
            return try reader.activity()
        }
    }
}
