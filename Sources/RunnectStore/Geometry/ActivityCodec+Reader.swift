import Foundation
import RunnectKit

extension ActivityCodec {
    /// Reads the parts back from an untrusted blob, checking every count against the bytes left.
    struct Reader {
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
            guard found == version || found == deviceVersion || found == pausesVersion else {
                throw ActivityCodecError.unsupportedVersion(found)
            }
            offset = magic.count + 1
            if found != version { pointFlags = PointFlags.version2 }

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

            if found != version {
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
            if found == pausesVersion {
                let pauseCount = try count(of: "pauses", minimumBytes: 16)
                activity.timerPauses.reserveCapacity(pauseCount)
                for _ in 0..<pauseCount {
                    let pauseOffset = offset
                    let start = try double()
                    let end = try double()
                    guard start <= end else { throw ActivityCodecError.invalidPause(offset: pauseOffset) }
                    activity.timerPauses.append(
                        DateInterval(
                            start: Date(timeIntervalSinceReferenceDate: start),
                            end: Date(timeIntervalSinceReferenceDate: end)))
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
