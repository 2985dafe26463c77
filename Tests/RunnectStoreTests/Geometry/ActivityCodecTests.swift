import Foundation
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

@Suite("Store: ActivityCodec")
struct ActivityCodecTests {
    @Test("every sample file encodes and decodes to an equal Activity", arguments: SampleTracks.files)
    func sampleRoundTrip(file: String) throws {
        let activity = try ActivityReader.read(path: SampleTracks.path(file))
        let blob = try ActivityCodec.encode(activity)
        let decoded = try ActivityCodec.decode(blob)
        #expect(decoded == activity)
        #expect(try ActivityCodec.encode(decoded) == blob)
    }

    @Test("every combination of optional fields survives")
    func syntheticRoundTrip() throws {
        let activity = Self.everyCombination()
        let decoded = try ActivityCodec.decode(try ActivityCodec.encode(activity))
        #expect(decoded == activity)
        // Bit patterns, not just ==: -0.0 and NaN payloads are kept too.
        let odd = TrackPoint(
            latitude: -0.0, longitude: .nan, elevationMeters: .infinity,
            time: Date(timeIntervalSinceReferenceDate: -0.0), heartRateBPM: 511.9921875)
        let back = try ActivityCodec.decode(
            try ActivityCodec.encode(
                Activity(format: .gpx, tracks: [Track(segments: [TrackSegment(points: [odd])])])))
        let point = try #require(back.tracks.first?.segments.first?.points.first)
        #expect(point.latitude.bitPattern == odd.latitude.bitPattern)
        #expect(point.longitude.bitPattern == odd.longitude.bitPattern)
        #expect(point.elevationMeters?.bitPattern == odd.elevationMeters?.bitPattern)
        #expect(point.time?.timeIntervalSinceReferenceDate.bitPattern == (-0.0).bitPattern)
        #expect(point.heartRateBPM == 511.9921875)  // the largest step TrackPoint keeps
    }

    @Test("every format, and metadata with every field present or absent")
    func formatsAndMetadata() throws {
        for format in ActivityFormat.allCases {
            for mask in 0..<16 {
                let metadata = ActivityMetadata(
                    name: mask & 1 != 0 ? "반포 한강 🏃‍♀️" : nil, description: mask & 2 != 0 ? "" : nil,
                    time: mask & 4 != 0 ? Date(timeIntervalSince1970: 1_746_187_471.123) : nil,
                    creator: mask & 8 != 0 ? "Garmin Forerunner 965" : nil)
                let activity = Activity(
                    format: format, metadata: metadata,
                    routes: [Route(points: [TrackPoint(latitude: 1, longitude: 2)])])
                #expect(try ActivityCodec.decode(try ActivityCodec.encode(activity)) == activity)
            }
        }
    }

    @Test("a point takes 17 bytes plus 8 per optional field")
    func size() throws {
        func empty(_ format: ActivityFormat) throws -> Int { try ActivityCodec.encode(Activity(format: format)).count }
        let taps = Activity(
            format: .pointsText,
            routes: [
                Route(
                    points: (0..<100).map {
                        TrackPoint(latitude: Double($0), longitude: 1)
                    })
            ])
        #expect(try ActivityCodec.encode(taps).count == empty(.pointsText) + 1 + 4 + 100 * 17)
        let full = TrackPoint(
            latitude: 1, longitude: 2, elevationMeters: 3, time: Date(), heartRateBPM: 140,
            cadence: 88, temperatureCelsius: nil)
        let run = Activity(
            format: .gpx11, tracks: [Track(segments: [TrackSegment(points: Array(repeating: full, count: 100))])])
        #expect(try ActivityCodec.encode(run).count == empty(.gpx11) + (1 + 4) + 4 + 100 * 49)
    }

    @Test("every truncation of a blob is refused, never a crash")
    func truncation() throws {
        let blob = try ActivityCodec.encode(Self.everyCombination())
        for length in 0..<blob.count {
            #expect(throws: ActivityCodecError.self) { try ActivityCodec.decode(blob.prefix(length)) }
        }
    }

    @Test("damaged blobs are refused with the reason")
    func corruption() throws {
        let activity = Activity(
            format: .gpx11, metadata: ActivityMetadata(name: "x"),
            tracks: [Track(segments: [TrackSegment(points: [TrackPoint(latitude: 1, longitude: 2)])])])
        let blob = [UInt8](try ActivityCodec.encode(activity))
        // Layout: "RNC1", u32 7 "gpx-1.1", metadata flags, u32 1 "x", u32 0 warnings, u32 1 track, …
        let metadataFlags = 4 + 4 + 7
        let warningCount = metadataFlags + 1 + 4 + 1
        let trackCount = warningCount + 4

        func decode(_ bytes: [UInt8]) -> ActivityCodecError? {
            do {
                _ = try ActivityCodec.decode(Data(bytes))
                return nil
            } catch {
                return error as? ActivityCodecError
            }
        }
        func patched(_ offset: Int, _ values: [UInt8]) -> [UInt8] {
            var bytes = blob
            bytes.replaceSubrange(offset..<(offset + values.count), with: values)
            return bytes
        }

        #expect(decode(blob) == nil)
        #expect(decode(Array("GPX1".utf8) + blob.dropFirst(4)) == .badMagic)
        // Version 2 holds device figures; 3 is unknown.
        #expect(decode(patched(3, [UInt8(ascii: "4")])) == .unsupportedVersion(UInt8(ascii: "4")))
        #expect(decode(blob + [0]) == .trailingBytes(1))
        #expect(decode(patched(metadataFlags, [0x81])) == .unknownFlags("metadata", 0x81, offset: metadataFlags))
        #expect(decode(patched(metadataFlags + 5, [0xFF])) == .invalidUTF8(offset: metadataFlags + 5))
        #expect(decode(patched(8, Array("gpx-9.9".utf8))) == .unknownFormat("gpx-9.9", offset: 4))
        // Counts far beyond the bytes left are refused before anything is allocated.
        #expect(
            decode(patched(warningCount, [0xFF, 0xFF, 0xFF, 0xFF]))
                == .invalidCount("warnings", Int(UInt32.max), offset: warningCount))
        #expect(
            decode(patched(trackCount, [0xFF, 0xFF, 0xFF, 0x7F]))
                == .invalidCount("tracks", 0x7FFF_FFFF, offset: trackCount))
    }

    @Test("random damage never crashes the decoder")
    func fuzz() throws {
        var generator = SplitMix64(seed: 0x5EED_C0DE)
        let blob = [UInt8](try ActivityCodec.encode(Self.everyCombination()))
        for _ in 0..<2_000 {
            var bytes = blob
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if Bool.random(using: &generator) { bytes.removeLast(Int.random(in: 0..<bytes.count, using: &generator)) }
            _ = try? ActivityCodec.decode(Data(bytes))
        }
    }

    /// Tracks, segments (empty ones too), routes and waypoints, with points holding each of the
    /// 32 combinations of the optional fields, and names and types present or absent.
    static func everyCombination() -> Activity {
        let points: [TrackPoint] = (0..<32).map { (mask: Int) -> TrackPoint in
            let offset = Double(mask)
            var point = TrackPoint(latitude: 37.5 + offset * 1e-5, longitude: 127.01 - offset * 1e-5)
            if mask & 1 != 0 { point.elevationMeters = 12.4 + offset }
            if mask & 2 != 0 { point.time = Date(timeIntervalSince1970: 1_746_187_471.5 + offset) }
            if mask & 4 != 0 { point.heartRateBPM = 140 }
            if mask & 8 != 0 { point.cadence = 88.5 }
            if mask & 16 != 0 { point.temperatureCelsius = -3.25 }
            return point
        }
        return Activity(
            format: .gpx11,
            metadata: ActivityMetadata(
                name: "반포 한강공원 달빛 러닝", description: "A & B <c>",
                time: Date(timeIntervalSince1970: 1_746_187_471), creator: "test"),
            tracks: [
                Track(name: "run", type: "running", segments: [TrackSegment(points: points), TrackSegment()]),
                Track(name: nil, type: "9", segments: [TrackSegment(points: points.reversed())]),
                Track(name: "", type: nil, segments: []),
            ],
            routes: [Route(name: "planned", points: points), Route(name: nil, points: [])],
            waypoints: points.prefix(4).enumerated().map {
                Waypoint(name: $0.offset.isMultiple(of: 2) ? "평화의 문" : nil, point: $0.element)
            },
            warnings: ["time without zone taken as UTC", ""])
    }
}
