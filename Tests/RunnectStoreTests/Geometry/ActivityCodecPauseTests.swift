import Foundation
import RunnectKit
import Testing

@testable import RunnectStore

@Suite("Store: ActivityCodec, timer pauses (version 3)")
struct ActivityCodecPauseTests {
    static func paused() -> Activity {
        var activity = ActivityCodecDeviceTests.lapped()
        activity.timerPauses = [
            DateInterval(start: Date(timeIntervalSince1970: 1_746_187_500.25), duration: 42.5),
            DateInterval(start: Date(timeIntervalSince1970: 1_746_188_000), duration: 0),
        ]
        return activity
    }

    @Test("pauses survive exactly; an activity without them keeps version 2 or 1")
    func roundTrip() throws {
        let activity = Self.paused()
        let blob = try ActivityCodec.encode(activity)
        #expect(blob.prefix(4) == Data("RNC3".utf8))
        #expect(try ActivityCodec.decode(blob) == activity)

        var bare = Activity(format: .gpx11, tracks: activity.tracks)
        bare.timerPauses = activity.timerPauses
        bare.tracks[0].segments[0].points[1].deviceSpeedMetersPerSecond = nil
        bare.tracks[0].segments[0].points[1].deviceDistanceMeters = nil
        let bareBlob = try ActivityCodec.encode(bare)
        #expect(bareBlob.prefix(4) == Data("RNC3".utf8))
        #expect(try ActivityCodec.decode(bareBlob) == bare)

        var unpaused = activity
        unpaused.timerPauses = []
        #expect(try ActivityCodec.encode(unpaused).prefix(4) == Data("RNC2".utf8))
    }

    @Test(
        "a pause ending before it starts, a pause count past the end, and a version 2 blob with pauses appended are refused"
    )
    func untrusted() throws {
        let blob = [UInt8](try ActivityCodec.encode(Self.paused()))
        // The last pause's end (the final 8 bytes) set before its start.
        var backwards = blob
        let early = Date(timeIntervalSince1970: 0).timeIntervalSinceReferenceDate.bitPattern.littleEndian
        withUnsafeBytes(of: early) { backwards.replaceSubrange((blob.count - 8)..., with: $0) }
        #expect {
            try ActivityCodec.decode(Data(backwards))
        } throws: { error in
            (error as? ActivityCodecError) == .invalidPause(offset: blob.count - 16)
        }
        // Two pauses cut to one and a half.
        #expect(throws: ActivityCodecError.self) { try ActivityCodec.decode(Data(blob.dropLast(8))) }
        // Read as version 2, the pauses are trailing bytes.
        var relabelled = blob
        relabelled[3] = UInt8(ascii: "2")
        #expect(throws: ActivityCodecError.trailingBytes(4 + 2 * 16)) { try ActivityCodec.decode(Data(relabelled)) }
    }
}
