import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

/// The FIT decoder on small files built byte by byte (``FITFileBuilder``).
@Suite("FIT reader: hand-built files")
struct FITReaderTests {
    typealias B = FITFileBuilder

    /// `record` with timestamp, position, enhanced altitude, heart rate, cadence, distance, temperature.
    static let recordFields: [B.FieldDefinition] = [
        (253, 4, B.uint32), (0, 4, B.sint32), (1, 4, B.sint32), (78, 4, B.uint32),
        (3, 1, B.uint8), (4, 1, B.uint8), (5, 4, B.uint32), (13, 1, B.sint8),
    ]
    static let t0: UInt64 = 1_000_000_000  // FIT seconds: 2021-09-08T01:46:40Z

    static func record(
        _ timestamp: UInt64, lat: Double, lon: Double, altitudeMeters: Double = 12.4,
        heartRate: UInt8 = 151, cadence: UInt8 = 88, distanceMeters: Double = 1234.56,
        temperature: Int8 = -3, bigEndian: Bool = false
    ) -> [UInt8] {
        B.integer(timestamp, bytes: 4, bigEndian: bigEndian)
            + B.signed(B.semicircles(lat), bytes: 4, bigEndian: bigEndian)
            + B.signed(B.semicircles(lon), bytes: 4, bigEndian: bigEndian)
            + B.integer(UInt64(((altitudeMeters + 500) * 5).rounded()), bytes: 4, bigEndian: bigEndian)
            + [heartRate, cadence]
            + B.integer(UInt64((distanceMeters * 100).rounded()), bytes: 4, bigEndian: bigEndian)
            + [UInt8(bitPattern: temperature)]
    }

    /// The record definition (local type 0) and one record at `t0`.
    static func oneRecord() -> B {
        var b = B()
        b.define(local: 0, global: 20, fields: recordFields)
        b.data(local: 0, record(t0, lat: 1, lon: 1))
        return b
    }

    static func date(_ fitSeconds: UInt64) -> Date {
        Date(timeIntervalSince1970: 631_065_600 + Double(fitSeconds))
    }

    static func decode(_ bytes: [UInt8]) throws -> FITReader.Result {
        try FITReader().decode(from: MemoryByteStream(bytes))
    }

    static func points(_ result: FITReader.Result) -> [TrackPoint] {
        result.activity.tracks.flatMap(\.segments).flatMap(\.points)
    }

    // MARK: - CRC

    @Test("the CRC matches the protocol's nibble algorithm and a published check value")
    func crc() {
        // Check value from the rustfit crate's documentation.
        #expect(FITCRC.checksum([43, 23, 23, 71, 95, 21, 38, 90, 91, 32] as [UInt8]) == 0x4EFC)
        var random = SplitMix64(seed: 0xF17)
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            #expect(FITCRC.checksum(bytes) == B.crc(bytes), "length \(length)")
        }
    }

    // MARK: - Messages

    @Test("a little-endian record: position in semicircles, altitude, heart rate, cadence, distance, temperature")
    func littleEndianRecord() throws {
        var b = B()
        b.define(local: 0, global: 20, fields: Self.recordFields)
        b.data(local: 0, Self.record(Self.t0, lat: 37.5665, lon: 126.978))
        let result = try Self.decode(b.file())
        let point = try #require(Self.points(result).first)
        #expect(abs(point.latitude - 37.5665) < 1e-7 && abs(point.longitude - 126.978) < 1e-7)
        #expect(point.latitude == Double(B.semicircles(37.5665)) * 180 / 2_147_483_648)
        #expect(abs(point.elevationMeters! - 12.4) < 1e-9)
        #expect(point.heartRateBPM == 151 && point.cadence == 88 && point.temperatureCelsius == -3)
        #expect(point.time == Self.date(Self.t0))
        #expect(result.activity.deviceTotals?.distanceMeters == 1234.56)  // no session: the last record's distance
        #expect(result.activity.warnings.isEmpty)
        #expect(result.summary.recordCount == 1 && result.summary.recordsWithPosition == 1)
    }

    @Test("a big-endian definition gives the same values")
    func bigEndian() throws {
        var little = B()
        var big = B()
        little.define(local: 0, global: 20, fields: Self.recordFields)
        big.define(local: 0, global: 20, bigEndian: true, fields: Self.recordFields)
        for i in 0..<3 {
            little.data(local: 0, Self.record(Self.t0 + UInt64(i), lat: -33.9 + Double(i) * 1e-4, lon: 151.2))
            big.data(
                local: 0, Self.record(Self.t0 + UInt64(i), lat: -33.9 + Double(i) * 1e-4, lon: 151.2, bigEndian: true))
        }
        let fromLittle = Self.points(try Self.decode(little.file()))
        let fromBig = Self.points(try Self.decode(big.file()))
        #expect(fromBig.count == 3)
        #expect(fromBig == fromLittle)
        // Bytes that differ between the two orders prove the big-endian path was taken.
        #expect(big.records != little.records)
    }

    @Test("compressed-timestamp headers add their offset to the last timestamp, rolling over every 32 s")
    func compressedTimestamps() throws {
        var b = B()
        b.define(local: 0, global: 20, fields: Self.recordFields)
        b.define(local: 1, global: 20, fields: [(3, 1, B.uint8)])  // heart rate only, no timestamp
        let start = Self.t0 + 15  // low five bits: 15 (t0 is a multiple of 32)
        b.data(local: 0, Self.record(start, lat: 1, lon: 2))
        b.compressedData(local: 1, timeOffset: 20, [140])  // 20 ≥ 15: same 32 s window
        b.compressedData(local: 1, timeOffset: 3, [141])  // 3 < 20: the next window
        let points = Self.points(try Self.decode(b.file()))
        #expect(Self.t0 % 32 == 0)
        #expect(points.map(\.time) == [Self.date(start), Self.date(Self.t0 + 20), Self.date(Self.t0 + 32 + 3)])
        #expect(points.map(\.heartRateBPM) == [151, 140, 141])
        #expect(points[1].latitude.isNaN)  // no position: kept for its time and heart rate
    }

    @Test("a compressed timestamp rolling over past 2126 has no time, never one back in 1989")
    func compressedTimestampOverflow() throws {
        var b = B()
        b.define(local: 0, global: 20, fields: Self.recordFields)
        b.define(local: 1, global: 20, fields: [(3, 1, B.uint8)])
        let last: UInt64 = 0xFFFF_FFF0  // the last 32 s window of FIT time; low five bits 16
        b.data(local: 0, Self.record(last, lat: 1, lon: 2))
        b.compressedData(local: 1, timeOffset: 20, [140])  // same window: 0xFFFFFFF4
        b.compressedData(local: 1, timeOffset: 3, [141])  // the next window would wrap to 3
        b.compressedData(local: 1, timeOffset: 4, [142])  // nothing to count from any more
        let result = try Self.decode(b.file())
        #expect(Self.points(result).map(\.time) == [Self.date(last), Self.date(0xFFFF_FFF4), nil, nil])
        #expect(!result.activity.warnings.contains { $0.contains("goes back") })
        #expect(result.activity.stats().elapsedTimeSeconds == 4)
    }

    @Test("records whose timestamps go back get a warning naming the record, and no negative time")
    func timestampsGoingBack() throws {
        var b = B()
        b.define(local: 0, global: 20, fields: Self.recordFields)
        for (index, seconds) in [Self.t0, Self.t0 + 1, Self.t0 + 2, Self.t0 - 3_600, Self.t0 - 3_599].enumerated() {
            b.data(local: 0, Self.record(seconds, lat: 1 + Double(index) * 0.0001, lon: 2))
        }
        let result = try Self.decode(b.file())
        #expect(result.activity.warnings.contains { $0.hasPrefix("segment 1, point 4: the time goes back 1:00:02") })
        #expect(result.activity.stats().elapsedTimeSeconds == 3)
    }

    @Test("developer fields are skipped by their declared size")
    func developerFields() throws {
        var b = B()
        b.define(
            local: 0, global: 20, fields: [(253, 4, B.uint32), (3, 1, B.uint8)],
            developerFields: [(0, 4, 0), (1, 7, 0)])
        b.data(local: 0, B.integer(Self.t0, bytes: 4, bigEndian: false) + [120] + [UInt8](repeating: 0xAB, count: 11))
        b.data(
            local: 0, B.integer(Self.t0 + 1, bytes: 4, bigEndian: false) + [121] + [UInt8](repeating: 0x40, count: 11))
        let result = try Self.decode(b.file())
        #expect(Self.points(result).map(\.heartRateBPM) == [120, 121])
        #expect(Self.points(result).map(\.time) == [Self.date(Self.t0), Self.date(Self.t0 + 1)])
        #expect(result.summary.damageByteOffset == nil)
        #expect(
            result.activity.warnings == [
                "none of the 2 records has a position: time and heart rate are given, "
                    + "but no geodesic distance"
            ])
    }

    @Test("invalid-value sentinels are missing values, and altitude stands in for enhanced_altitude")
    func invalidValues() throws {
        var b = B()
        b.define(local: 0, global: 20, fields: Self.recordFields + [(2, 2, B.uint16)])
        var content = Self.record(Self.t0, lat: 10, lon: 20, heartRate: 0xFF, cadence: 0xFF, temperature: 0x7F)
        content.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0x7F])  // position_lat 0x7FFFFFFF
        content.replaceSubrange(12..<16, with: [0xFF, 0xFF, 0xFF, 0xFF])  // enhanced_altitude invalid
        content += B.integer(UInt64((100.0 + 500) * 5), bytes: 2, bigEndian: false)  // altitude 100 m
        b.data(local: 0, content)
        let result = try Self.decode(b.file())
        let point = try #require(Self.points(result).first)
        #expect(point.latitude.isNaN && point.longitude.isNaN)
        #expect(point.heartRateBPM == nil && point.cadence == nil && point.temperatureCelsius == nil)
        #expect(point.elevationMeters == 100)
        #expect(result.summary.recordsWithPosition == 0)
        #expect(result.activity.warnings.contains { $0.contains("no geodesic distance") })
    }

    @Test("sessions, laps, timer pauses and the local time offset")
    func sessionsLapsAndPauses() throws {
        var b = B()
        b.define(local: 0, global: 20, fields: Self.recordFields)
        b.define(local: 1, global: 21, fields: [(253, 4, B.uint32), (0, 1, B.enumeration), (1, 1, B.enumeration)])
        let totals: [B.FieldDefinition] = [(2, 4, B.uint32), (7, 4, B.uint32), (8, 4, B.uint32), (9, 4, B.uint32)]
        b.define(local: 2, global: 19, fields: totals + [(21, 2, B.uint16), (22, 2, B.uint16), (25, 1, B.enumeration)])
        b.define(local: 3, global: 18, fields: totals + [(22, 2, B.uint16), (23, 2, B.uint16), (5, 1, B.enumeration)])
        b.define(local: 4, global: 34, fields: [(253, 4, B.uint32), (5, 4, B.uint32)])
        func event(_ t: UInt64, _ type: UInt8) -> [UInt8] { B.integer(t, bytes: 4, bigEndian: false) + [0, type] }
        func u32(_ v: UInt64) -> [UInt8] { B.integer(v, bytes: 4, bigEndian: false) }
        func u16(_ v: UInt64) -> [UInt8] { B.integer(v, bytes: 2, bigEndian: false) }

        b.data(local: 1, event(Self.t0, 0))  // timer start
        for i in 0..<3 { b.data(local: 0, Self.record(Self.t0 + UInt64(i), lat: 50 + Double(i) * 1e-4, lon: 4)) }
        b.data(local: 1, event(Self.t0 + 2, 4))  // stop_all
        b.data(local: 0, Self.record(Self.t0 + 2, lat: 50.0002, lon: 4))  // stamped at the stop: same segment
        b.data(local: 1, event(Self.t0 + 60, 0))  // start after a 58 s pause
        for i in 0..<2 {
            b.data(local: 0, Self.record(Self.t0 + 60 + UInt64(i), lat: 50.001 + Double(i) * 1e-4, lon: 4))
        }
        b.data(local: 1, event(Self.t0 + 61, 1))  // stop
        b.data(local: 2, u32(Self.t0) + u32(61_500) + u32(3_500) + u32(1_234) + u16(5) + u16(6) + [1])
        b.data(local: 3, u32(Self.t0) + u32(61_500) + u32(3_500) + u32(2_500) + u16(7) + u16(8) + [1])
        b.data(local: 4, u32(Self.t0 + 61) + u32(Self.t0 + 61 + 9 * 3600))  // UTC+9

        let result = try Self.decode(b.file())
        let activity = result.activity
        #expect(activity.tracks.count == 1)
        #expect(activity.tracks[0].segments.map(\.points.count) == [6])
        #expect(activity.timerPauses == [DateInterval(start: Self.date(Self.t0 + 2), end: Self.date(Self.t0 + 60))])
        #expect(activity.tracks[0].type == "running")
        #expect(result.summary.timerStartEvents == 2 && result.summary.timerStopEvents == 2)
        #expect(activity.laps.count == 1)
        #expect(activity.laps[0].startTime == Self.date(Self.t0))
        #expect(
            activity.laps[0].totals
                == DeviceTotals(
                    distanceMeters: 12.34, elapsedTimeSeconds: 61.5, timerTimeSeconds: 3.5,
                    ascentMeters: 5, descentMeters: 6, sport: "running"))
        #expect(
            activity.deviceTotals
                == DeviceTotals(
                    distanceMeters: 25, elapsedTimeSeconds: 61.5, timerTimeSeconds: 3.5,
                    ascentMeters: 7, descentMeters: 8, sport: "running"))
        #expect(result.summary.localTimeOffsetSeconds == 9 * 3600)
        #expect(activity.metadata.name == "Running 2021-09-08 10:46")  // 01:46 UTC at UTC+9

        // The 89 m hop across the 58 s pause is distance (as in the device's GPX export), but
        // not moving time, though at 1.5 m/s it is faster than the moving threshold.
        let points = activity.tracks[0].segments[0].points
        let hop = try #require(Geodesic.distance(from: points[3].coordinate, to: points[4].coordinate))
        #expect(hop > 80)
        let stats = activity.stats()
        #expect(stats.segmentCount == 1)
        #expect(stats.elapsedTimeSeconds == 61)
        #expect(stats.movingTimeSeconds! <= 3)
        #expect(stats.distanceMeters >= hop)
        let ignoringPauses = ActivityStats(segments: activity.courseSegments)
        #expect(ignoringPauses.movingTimeSeconds! >= 58)
        #expect(ignoringPauses.distanceMeters == stats.distanceMeters)
    }

    // MARK: - Damage

    @Test("a bad file CRC or header CRC is a warning; the figures are still read")
    func badCRC() throws {
        let b = Self.oneRecord()
        let good = try Self.decode(b.file())
        #expect(good.activity.warnings.isEmpty)

        let badFile = try Self.decode(b.file(corruptCRC: true))
        #expect(badFile.summary.recordCount == 1)
        #expect(badFile.activity.warnings.contains { $0.hasPrefix("CRC mismatch") })

        let newerProtocol = b.file(protocolVersion: 0x30)
        #expect(
            try Self.decode(newerProtocol).activity.warnings
                == ["FIT protocol version 3.0 at byte 1 is newer than 2.x; read as 2.x"])

        var badHeader = b.file()
        badHeader[12] ^= 0xFF
        let result = try Self.decode(badHeader)
        #expect(result.summary.recordCount == 1)
        #expect(result.activity.warnings.contains { $0.hasPrefix("header CRC mismatch at byte 12") })
    }

    @Test("chained files: each is its own track with its own definitions")
    func chainedFiles() throws {
        var first = B()
        var second = B()
        first.define(local: 0, global: 20, fields: Self.recordFields)
        first.data(local: 0, Self.record(Self.t0, lat: 1, lon: 1))
        first.data(local: 0, Self.record(Self.t0 + 1, lat: 1.0001, lon: 1))
        // The second file uses local type 0 for another layout (heart rate only).
        second.define(local: 0, global: 20, fields: [(253, 4, B.uint32), (3, 1, B.uint8)])
        second.data(local: 0, B.integer(Self.t0 + 100, bytes: 4, bigEndian: false) + [99])
        let result = try Self.decode(first.file() + second.file(headerBytes: 12))
        #expect(result.summary.fileCount == 2)
        #expect(result.activity.tracks.count == 2)
        #expect(result.activity.tracks.map { $0.segments.flatMap(\.points).count } == [2, 1])
        #expect(Self.points(result).last?.heartRateBPM == 99)
        #expect(result.activity.warnings.isEmpty)

        // A data message in the second file cannot use the first file's definitions.
        var orphan = B()
        orphan.data(local: 0, Self.record(Self.t0 + 200, lat: 1, lon: 1))
        let firstBytes = first.file()
        let broken = try Self.decode(firstBytes + orphan.file())
        #expect(broken.summary.recordCount == 2)
        #expect(
            broken.activity.warnings.contains {
                $0.hasPrefix("byte \(firstBytes.count + 14): data message of local type 0")
            })
    }

    @Test("a thousand chained files with bad CRCs give a bounded number of warnings")
    func warningsAreBounded() throws {
        let file = Self.oneRecord().file(corruptCRC: true)
        let result = try Self.decode(Array([[UInt8]](repeating: file, count: 1000).joined()))
        #expect(result.summary.fileCount == 1000 && result.summary.recordCount == 1000)
        #expect(result.activity.warnings.count == FITDecoder.maximumWarnings + 1)
        #expect(result.activity.warnings.last == "980 more warning(s) like these were left out")
    }

    @Test("bytes after the last file are a warning")
    func trailingBytes() throws {
        let b = Self.oneRecord()
        let result = try Self.decode(b.file() + [0, 0, 0, 0, 0])
        #expect(result.summary.recordCount == 1)
        #expect(result.activity.warnings.contains { $0.hasPrefix("5 byte(s) after the FIT data") })
    }

    @Test("truncation: the records before it and a warning, or an error naming the byte when none precedes it")
    func truncation() throws {
        var b = B()
        b.define(local: 0, global: 20, fields: Self.recordFields)
        for i in 0..<5 { b.data(local: 0, Self.record(Self.t0 + UInt64(i), lat: 1 + Double(i) * 1e-4, lon: 1)) }
        let whole = b.file()
        let cut = Array(whole.prefix(whole.count - 2 - 10))  // inside the last record
        let result = try Self.decode(cut)
        #expect(result.summary.recordCount == 4)
        #expect(result.summary.damageByteOffset == cut.count)
        #expect(result.activity.warnings.contains { $0.hasPrefix("byte \(cut.count): the file ends") })

        let early = Array(whole.prefix(20))  // inside the definition
        let error = try #require(throws: ReadError.self) { try Self.decode(early) }
        #expect(
            error
                == .malformedBinary(
                    "the file ends before the end of the data its header declares (byte \(whole.count - 2))",
                    byteOffset: 20))
    }

    @Test(
        "a definition declaring 255 fields of 255 bytes, a 4 GB data size, a bad architecture: no crash, a clear error")
    func hugeAndInvalidSizes() throws {
        var huge = B()
        huge.define(
            local: 0, global: 20, fields: Array(repeating: (7, 255, B.string), count: 255),
            developerFields: Array(repeating: (0, 255, 0), count: 255))
        huge.data(local: 0, [1, 2, 3])
        let hugeBytes = huge.file(declaredDataBytes: .max)
        let error = try #require(throws: ReadError.self) { try Self.decode(hugeBytes) }
        #expect(error.description.hasPrefix("byte \(hugeBytes.count): the file ends"), "\(error)")

        // The same definition within a file whose data size is honest: the message overruns it.
        let overrun = try #require(throws: ReadError.self) { try Self.decode(huge.file()) }
        #expect(overrun.description.contains("130051-byte message runs past the end of the data"), "\(overrun)")

        var architecture = B()
        architecture.define(local: 0, global: 20, fields: Self.recordFields)
        architecture.records[2] = 7
        let bad = try #require(throws: ReadError.self) { try Self.decode(architecture.file()) }
        #expect(
            bad
                == .malformedBinary(
                    "definition message with architecture 7 (0 little-endian or 1 big-endian expected)",
                    byteOffset: 16))
    }

    @Test("not FIT: an empty stream, a short header, no signature")
    func notFIT() {
        #expect(throws: ReadError.malformedBinary("the file is empty", byteOffset: 0)) { try Self.decode([]) }
        #expect(throws: ReadError.self) { try Self.decode([14, 0x20, 0, 0]) }
        var bytes = B().file()
        bytes[9] = UInt8(ascii: "X")
        #expect(throws: ReadError.malformedBinary("not a FIT file (no \".FIT\" signature)", byteOffset: 8)) {
            try Self.decode(bytes)
        }
    }

    @Test("the result does not depend on how the stream is chunked")
    func chunking() throws {
        var b = B()
        b.define(local: 0, global: 20, fields: Self.recordFields)
        for i in 0..<200 { b.data(local: 0, Self.record(Self.t0 + UInt64(i), lat: 1 + Double(i) * 1e-5, lon: 1)) }
        let bytes = b.file()
        let whole = try Self.decode(bytes)
        for step in [1, 2, 3, 7, 64] {
            let trickled = try FITReader().decode(from: TricklingStream(bytes, step: step))
            #expect(trickled.activity == whole.activity, "step \(step)")
        }
    }

    @Test("ActivityReader detects FIT from the content")
    func detection() throws {
        let b = Self.oneRecord()
        let activity = try ActivityReader.read(from: MemoryByteStream(b.file(headerBytes: 12)))
        #expect(activity.format == .fit)
        #expect(ActivityReader.detect(b.file()) == .fit)
    }
}

/// Hands over at most `step` bytes per read.
private final class TricklingStream: ByteStream {
    private let bytes: [UInt8]
    private var offset = 0
    private let step: Int

    init(_ bytes: [UInt8], step: Int) {
        self.bytes = bytes
        self.step = step
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, bytes.count - offset, step)
        guard n > 0 else { return 0 }
        for i in 0..<n { buffer[i] = bytes[offset + i] }
        offset += n
        return n
    }
}
