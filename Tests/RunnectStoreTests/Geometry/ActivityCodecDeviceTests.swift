import Foundation
import RunnectKit
import Testing

@testable import RunnectStore

@Suite("Store: ActivityCodec, device figures (version 2)")
struct ActivityCodecDeviceTests {
    static func lapped() -> Activity {
        let point = TrackPoint(latitude: 37.5, longitude: 127, time: Date(timeIntervalSince1970: 1_746_187_471))
        var measured = point
        measured.deviceSpeedMetersPerSecond = 3.25
        measured.deviceDistanceMeters = 1000.25
        measured.cadence = 88
        return Activity(
            format: .tcx, tracks: [Track(type: "Running", segments: [TrackSegment(points: [point, measured])])],
            laps: [
                Lap(
                    startTime: Date(timeIntervalSince1970: 1_746_187_471.5),
                    totals: DeviceTotals(distanceMeters: 1000.25, timerTimeSeconds: 300, calories: 70)),
                Lap(totals: DeviceTotals()),
                Lap(
                    totals: DeviceTotals(
                        distanceMeters: 0, elapsedTimeSeconds: 1, timerTimeSeconds: 2, ascentMeters: 3,
                        descentMeters: 4, calories: 5, sport: "러닝")),
            ],
            deviceTotals: DeviceTotals(distanceMeters: 1000.25, timerTimeSeconds: 302, calories: 75, sport: "Running"))
    }

    @Test("laps and device totals survive; an activity without them is written as version 1, as before")
    func roundTrip() throws {
        let activity = Self.lapped()
        let blob = try ActivityCodec.encode(activity)
        #expect(blob.prefix(4) == Data("RNC2".utf8))
        #expect(try ActivityCodec.decode(blob) == activity)
        var lapsOnly = activity
        lapsOnly.deviceTotals = nil
        #expect(try ActivityCodec.decode(try ActivityCodec.encode(lapsOnly)) == lapsOnly)
        var totalsOnly = activity
        totalsOnly.laps = []
        #expect(try ActivityCodec.decode(try ActivityCodec.encode(totalsOnly)) == totalsOnly)

        var pointsOnly = totalsOnly
        pointsOnly.deviceTotals = nil
        let pointsBlob = try ActivityCodec.encode(pointsOnly)
        #expect(pointsBlob.prefix(4) == Data("RNC2".utf8))
        #expect(try ActivityCodec.decode(pointsBlob) == pointsOnly)

        var plain = pointsOnly
        plain.tracks[0].segments[0].points[1].deviceSpeedMetersPerSecond = nil
        plain.tracks[0].segments[0].points[1].deviceDistanceMeters = nil
        let v1 = try ActivityCodec.encode(plain)
        #expect(v1.prefix(4) == Data("RNC1".utf8))
        #expect(try ActivityCodec.decode(v1) == plain)
        // A version 1 blob cannot carry the device point flags.
        var relabelled = [UInt8](pointsBlob)
        relabelled[3] = UInt8(ascii: "1")
        #expect(throws: ActivityCodecError.self) { try ActivityCodec.decode(Data(relabelled.dropLast(5))) }
    }

    @Test("a blob written before points were packed, with full doubles for the device readings, reads to the step")
    func unpackedDoubles() throws {
        // The blob of the encoder before, holding the values a TCX file and a hand-made GPX gave
        // then: the doubles are patched in where today's encoder writes the stepped ones.
        let written: [(stepped: Double, old: Double)] = [
            (1.446, 1.4459999799728394), (1.19, 1.190000057220459), (140.296875, 140.3), (86.5, 86.5),
            (-3.33, -3.3333333333333335),
        ]
        var point = TrackPoint(latitude: 37.5, longitude: 127, time: Date(timeIntervalSince1970: 1_746_187_471))
        point.deviceSpeedMetersPerSecond = written[0].stepped
        point.deviceDistanceMeters = written[1].stepped
        point.heartRateBPM = written[2].stepped
        point.cadence = written[3].stepped
        point.temperatureCelsius = written[4].stepped
        let activity = Activity(format: .tcx, tracks: [Track(segments: [TrackSegment(points: [point])])])
        var bytes = [UInt8](try ActivityCodec.encode(activity))
        for (stepped, old) in written {
            let new = withUnsafeBytes(of: stepped.bitPattern.littleEndian, Array.init)
            let index = try #require(
                bytes.indices.dropLast(7).first { bytes[$0..<($0 + 8)].elementsEqual(new) }, "\(stepped)")
            bytes.replaceSubrange(
                index..<(index + 8), with: withUnsafeBytes(of: old.bitPattern.littleEndian, Array.init))
        }
        let decoded = try ActivityCodec.decode(Data(bytes))
        #expect(decoded == activity)
        let back = try #require(decoded.tracks.first?.segments.first?.points.first)
        #expect(back.heartRateBPM == 140.296875 && back.temperatureCelsius == -3.33)
    }

    @Test("every truncation of a version 2 blob is refused; unknown flags and version 4 too")
    func damaged() throws {
        let blob = try ActivityCodec.encode(Self.lapped())
        for length in 0..<blob.count {
            #expect(throws: ActivityCodecError.self) { try ActivityCodec.decode(blob.prefix(length)) }
        }
        var newer = [UInt8](blob)
        newer[3] = UInt8(ascii: "4")
        #expect(throws: ActivityCodecError.unsupportedVersion(UInt8(ascii: "4"))) {
            try ActivityCodec.decode(Data(newer))
        }
        // A v1 body read as v2 has no device part: refused as truncated, never misread.
        let plain = try ActivityCodec.encode(Activity(format: .gpx11))
        var relabelled = [UInt8](plain)
        relabelled[3] = UInt8(ascii: "2")
        #expect(throws: ActivityCodecError.self) { try ActivityCodec.decode(Data(relabelled)) }
    }
}
