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
/// A point takes 17 bytes plus 8 per optional field present: 17 for a tap, 49 for a watch fix
/// with elevation, time, heart rate and cadence (JSON of the same point takes about 150).
///
/// The blob is untrusted input to ``decode(_:)``: every count and length is checked against the
/// bytes that remain before anything is allocated, unknown flag bits and trailing bytes are
/// refused, and strings must be valid UTF-8.
enum ActivityCodec {
    static let magic: [UInt8] = Array("RNC".utf8)
    /// The version written for activities without device figures (every blob before laps).
    static let version: UInt8 = UInt8(ascii: "1")
    /// The version written for activities with laps or device totals.
    static let deviceVersion: UInt8 = UInt8(ascii: "2")

    /// Smallest encodings, used to bound counts before allocating.
    private static let minimumPointBytes = 17
    private static let minimumStringBytes = 4
    private static let minimumTrackBytes = 1 + 4
    private static let minimumSegmentBytes = 4
    private static let minimumRouteBytes = 1 + 4
    private static let minimumWaypointBytes = 1 + minimumPointBytes
    private static let minimumLapBytes = 1 + 1

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
        let hasDevice = activity.deviceTotals != nil || !activity.laps.isEmpty || Self.hasDevicePoints(activity)
        writer.bytes.append(contentsOf: magic)
        writer.bytes.append(hasDevice ? deviceVersion : version)
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

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func u32(_ value: UInt32) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func double(_ value: Double) {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func count(_ count: Int, of what: String) throws {
            guard let value = UInt32(exactly: count) else { throw ActivityCodecError.tooLarge(what) }
            u32(value)
        }

        mutating func string(_ text: String) throws {
            var text = text
            try text.withUTF8 { utf8 in
                try count(utf8.count, of: "a string")
                bytes.append(contentsOf: utf8)
            }
        }

        mutating func flags(_ present: [Bool]) {
            var value: UInt8 = 0
            for (bit, isPresent) in present.enumerated() where isPresent { value |= 1 << UInt8(bit) }
            bytes.append(value)
        }

        mutating func totals(_ totals: DeviceTotals) throws {
            let figures = [
                totals.distanceMeters, totals.elapsedTimeSeconds, totals.timerTimeSeconds,
                totals.ascentMeters, totals.descentMeters, totals.calories,
            ]
            flags(figures.map { $0 != nil } + [totals.sport != nil])
            for case let figure? in figures { double(figure) }
            try totals.sport.map { try string($0) }
        }

        mutating func point(_ point: TrackPoint) {
            var mask: UInt8 = 0
            if point.elevationMeters != nil { mask |= PointFlags.elevation }
            if point.time != nil { mask |= PointFlags.time }
            if point.heartRateBPM != nil { mask |= PointFlags.heartRate }
            if point.cadence != nil { mask |= PointFlags.cadence }
            if point.temperatureCelsius != nil { mask |= PointFlags.temperature }
            if point.deviceSpeedMetersPerSecond != nil { mask |= PointFlags.deviceSpeed }
            if point.deviceDistanceMeters != nil { mask |= PointFlags.deviceDistance }
            bytes.append(mask)
            double(point.latitude)
            double(point.longitude)
            point.elevationMeters.map { double($0) }
            point.time.map { double($0.timeIntervalSinceReferenceDate) }
            point.heartRateBPM.map { double($0) }
            point.cadence.map { double($0) }
            point.temperatureCelsius.map { double($0) }
            point.deviceSpeedMetersPerSecond.map { double($0) }
            point.deviceDistanceMeters.map { double($0) }
        }
    }

    private enum PointFlags {
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
    static func decode(_ data: Data) throws -> Activity {
        try data.withUnsafeBytes { raw in
            var reader = Reader(raw)
            return try reader.activity()
        }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        /// The point flags the blob's version has.
        var pointFlags = PointFlags.version1

        init(_ bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        var remaining: Int { bytes.count - offset }

        mutating func activity() throws -> Activity {
            guard remaining >= magic.count + 1, bytes.prefix(magic.count).elementsEqual(magic) else {
                throw ActivityCodecError.badMagic
            }
            let found = bytes[magic.count]
            guard found == version || found == deviceVersion else { throw ActivityCodecError.unsupportedVersion(found) }
            offset = magic.count + 1
            if found == deviceVersion { pointFlags = PointFlags.version2 }

            let formatOffset = offset
            let formatName = try string()
            guard let format = ActivityFormat(rawValue: formatName) else {
                throw ActivityCodecError.unknownFormat(formatName, offset: formatOffset)
            }
            var activity = Activity(format: format)

            let metadataFlags = try flags(allowed: 0b1111, of: "metadata")
            if metadataFlags & 1 != 0 { activity.metadata.name = try string() }
            if metadataFlags & 2 != 0 { activity.metadata.description = try string() }
            if metadataFlags & 4 != 0 { activity.metadata.time = Date(timeIntervalSinceReferenceDate: try double()) }
            if metadataFlags & 8 != 0 { activity.metadata.creator = try string() }

            let warningCount = try count(of: "warnings", minimumBytes: minimumStringBytes)
            activity.warnings.reserveCapacity(warningCount)
            for _ in 0..<warningCount { activity.warnings.append(try string()) }

            let trackCount = try count(of: "tracks", minimumBytes: minimumTrackBytes)
            activity.tracks.reserveCapacity(trackCount)
            for _ in 0..<trackCount {
                var track = Track()
                let trackFlags = try flags(allowed: 0b11, of: "track")
                if trackFlags & 1 != 0 { track.name = try string() }
                if trackFlags & 2 != 0 { track.type = try string() }
                let segmentCount = try count(of: "segments", minimumBytes: minimumSegmentBytes)
                track.segments.reserveCapacity(segmentCount)
                for _ in 0..<segmentCount {
                    track.segments.append(TrackSegment(points: try points()))
                }
                activity.tracks.append(track)
            }

            let routeCount = try count(of: "routes", minimumBytes: minimumRouteBytes)
            activity.routes.reserveCapacity(routeCount)
            for _ in 0..<routeCount {
                var route = Route()
                if try flags(allowed: 1, of: "route") & 1 != 0 { route.name = try string() }
                route.points = try points()
                activity.routes.append(route)
            }

            let waypointCount = try count(of: "waypoints", minimumBytes: minimumWaypointBytes)
            activity.waypoints.reserveCapacity(waypointCount)
            for _ in 0..<waypointCount {
                let name = try flags(allowed: 1, of: "waypoint") & 1 != 0 ? try string() : nil
                activity.waypoints.append(Waypoint(name: name, point: try point()))
            }

            if found == deviceVersion {
                if try flags(allowed: 1, of: "device") & 1 != 0 { activity.deviceTotals = try totals() }
                let lapCount = try count(of: "laps", minimumBytes: minimumLapBytes)
                activity.laps.reserveCapacity(lapCount)
                for _ in 0..<lapCount {
                    var lap = Lap()
                    if try flags(allowed: 1, of: "lap") & 1 != 0 {
                        lap.startTime = Date(timeIntervalSinceReferenceDate: try double())
                    }
                    lap.totals = try totals()
                    activity.laps.append(lap)
                }
            }

            guard remaining == 0 else { throw ActivityCodecError.trailingBytes(remaining) }
            return activity
        }

        mutating func need(_ count: Int) throws {
            guard count <= remaining else {
                throw ActivityCodecError.truncated(needed: count, remaining: remaining, offset: offset)
            }
        }

        mutating func u8() throws -> UInt8 {
            try need(1)
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func u32() throws -> UInt32 {
            try need(4)
            defer { offset += 4 }
            return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }

        mutating func double() throws -> Double {
            try need(8)
            defer { offset += 8 }
            return Double(
                bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        }

        /// A count of items that take at least `minimumBytes` each, checked against what remains.
        mutating func count(of what: String, minimumBytes: Int) throws -> Int {
            let at = offset
            let value = Int(try u32())
            guard value <= remaining / minimumBytes else {
                throw ActivityCodecError.invalidCount(what, value, offset: at)
            }
            return value
        }

        mutating func flags(allowed: UInt8, of what: String) throws -> UInt8 {
            let at = offset
            let value = try u8()
            guard value & ~allowed == 0 else { throw ActivityCodecError.unknownFlags(what, value, offset: at) }
            return value
        }

        mutating func string() throws -> String {
            let length = try count(of: "string bytes", minimumBytes: 1)
            let start = offset
            offset += length
            guard let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
            else {
                throw ActivityCodecError.invalidUTF8(offset: start)
            }
            return text
        }

        mutating func points() throws -> [TrackPoint] {
            let pointCount = try count(of: "points", minimumBytes: minimumPointBytes)
            var points: [TrackPoint] = []
            points.reserveCapacity(pointCount)
            for _ in 0..<pointCount { points.append(try point()) }
            return points
        }

        mutating func totals() throws -> DeviceTotals {
            let mask = try flags(allowed: 0b111_1111, of: "device totals")
            var figures: [Double?] = []
            for bit in 0..<6 { figures.append(mask & (1 << bit) != 0 ? try double() : nil) }
            return DeviceTotals(
                distanceMeters: figures[0], elapsedTimeSeconds: figures[1], timerTimeSeconds: figures[2],
                ascentMeters: figures[3], descentMeters: figures[4], calories: figures[5],
                sport: mask & (1 << 6) != 0 ? try string() : nil)
        }

        mutating func point() throws -> TrackPoint {
            let mask = try flags(allowed: pointFlags, of: "point")
            var point = TrackPoint(latitude: try double(), longitude: try double())
            if mask & PointFlags.elevation != 0 { point.elevationMeters = try double() }
            if mask & PointFlags.time != 0 { point.time = Date(timeIntervalSinceReferenceDate: try double()) }
            if mask & PointFlags.heartRate != 0 { point.heartRateBPM = try double() }
            if mask & PointFlags.cadence != 0 { point.cadence = try double() }
            if mask & PointFlags.temperature != 0 { point.temperatureCelsius = try double() }
            if mask & PointFlags.deviceSpeed != 0 { point.deviceSpeedMetersPerSecond = try double() }
            if mask & PointFlags.deviceDistance != 0 { point.deviceDistanceMeters = try double() }
            return point
        }
    }
}

/// Why a stored geometry blob could not be decoded (or an activity could not be encoded).
enum ActivityCodecError: Error, Equatable, CustomStringConvertible {
    case badMagic
    case unsupportedVersion(UInt8)
    case truncated(needed: Int, remaining: Int, offset: Int)
    case invalidCount(String, Int, offset: Int)
    case unknownFlags(String, UInt8, offset: Int)
    case invalidUTF8(offset: Int)
    case unknownFormat(String, offset: Int)
    case trailingBytes(Int)
    case tooLarge(String)

    var description: String {
        switch self {
        case .badMagic:
            return "not an RNC geometry blob"
        case .unsupportedVersion(let version):
            return "geometry format version \(Character(Unicode.Scalar(version))) is newer than this build reads"
        case .truncated(let needed, let remaining, let offset):
            return "truncated at byte \(offset): \(needed) bytes needed, \(remaining) left"
        case .invalidCount(let what, let count, let offset):
            return "\(count) \(what) at byte \(offset) cannot fit in the bytes that remain"
        case .unknownFlags(let what, let flags, let offset):
            return "unknown \(what) flags 0x\(String(flags, radix: 16)) at byte \(offset)"
        case .invalidUTF8(let offset):
            return "invalid UTF-8 in the string at byte \(offset)"
        case .unknownFormat(let name, let offset):
            return "unknown source format \"\(name)\" at byte \(offset)"
        case .trailingBytes(let count):
            return "\(count) unexpected bytes after the end"
        case .tooLarge(let what):
            return "too many \(what) to store (more than 4,294,967,295)"
        }
    }
}
