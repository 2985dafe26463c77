import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

@Suite("FIT writer")
struct FITWriterTests {
    static func uint(_ data: Data, _ offset: Int, _ count: Int) -> Int {
        (0..<count).reduce(0) { $0 | Int(data[data.startIndex + offset + $1]) << (8 * $1) }
    }

    /// CRCs are recomputed with the test support's own FIT CRC (``FITFileBuilder/crc(_:)``: the
    /// protocol's four-bit table), not the reader's, which the writer uses.
    @Test("header: 14 bytes, .FIT, the data size, and both CRCs as the FIT SDK computes them")
    func headerAndCRCs() throws {
        for kind in ExportKind.allCases {
            let data = try FITWriter(options: ExportOptions(kind: kind)).data(for: CourseFileTestData.run(segments: 2))
            #expect(data[0] == 14 && data[1] == 0x10)
            #expect(Self.uint(data, 2, 2) == 2132)
            #expect(Self.uint(data, 4, 4) == data.count - 16, "data size: the file less header and CRC")
            #expect(String(decoding: data[8..<12], as: UTF8.self) == ".FIT")
            #expect(Self.uint(data, 12, 2) == Int(FITFileBuilder.crc(Array(data[0..<12]))))
            #expect(Self.uint(data, data.count - 2, 2) == Int(FITFileBuilder.crc(Array(data[0..<(data.count - 2)]))))
            #expect(FITFileBuilder.crc(Array(data)) == 0, "a file with its CRC appended checks to 0")
        }
    }

    @Test("the reader finds a flipped byte: the file CRC no longer matches")
    func corruption() throws {
        var data = try FITWriter().data(for: CourseFileTestData.run())
        let clean = try FITReader().decode(from: MemoryByteStream(data)).activity
        #expect(!clean.warnings.contains { $0.contains("CRC") })
        data[data.count - 40] ^= 0x01  // inside the last record's values
        let damaged = try FITReader().decode(from: MemoryByteStream(data)).activity
        #expect(damaged.warnings.contains { $0.contains("CRC") }, "\(damaged.warnings)")
    }

    @Test("semicircles = round(degrees × 2³¹ / 180); +180° wraps to −180°")
    func semicircles() {
        #expect(FITWriter.semicircles(0) == 0)
        #expect(FITWriter.semicircles(90) == 1 << 30)
        #expect(FITWriter.semicircles(-90) == -(1 << 30))
        #expect(FITWriter.semicircles(180) == Int32.min)
        #expect(FITWriter.semicircles(-180) == Int32.min)
        #expect(FITWriter.semicircles(179.99999999) == Int32.min)  // rounds up to 2³¹: −180°
        #expect(FITWriter.semicircles(37.5665) == 448_185_803)  // 37.5665 × 2³¹ / 180 = 448185802.57 (Python)
        #expect(FITWriter.semicircles(-122.50564) == -1_461_549_215)  // −1461549214.6 (Python)
        // Half a semicircle is the most a position moves: 4.2e-8° (4.7 mm of latitude).
        var random = SplitMix64(seed: 9)
        var worst = 0.0
        for _ in 0..<10_000 {
            let degrees = random.double(in: -179.9...179.9)
            let back = Double(FITWriter.semicircles(degrees)) * 180 / 2_147_483_648
            worst = max(worst, abs(back - degrees))
        }
        #expect(worst <= 90 / 2_147_483_648.0 && worst > 40 / 2_147_483_648.0)
    }

    @Test("a course's times advance at the pace along the path; the pace is an option")
    func pace() throws {
        let activity = CourseFileTestData.course([(37.5, 127.0), (37.51, 127.0), (37.51, 127.01)])
        let meters = Geodesic.length(of: activity.courseSegments[0].map(\.coordinate))
        for pace in [300.0, 420] {
            let data = try FITWriter(options: ExportOptions(paceSecondsPerKilometer: pace)).data(for: activity)
            let points = try FITReader().read(from: MemoryByteStream(data)).courseSegments[0]
            let seconds = points.last!.time!.timeIntervalSince(points[0].time!)
            #expect(abs(seconds - meters / 1000 * pace) <= 0.5, "\(pace) s/km: \(seconds) s for \(meters) m")
            #expect(points[0].time == Date(timeIntervalSince1970: 946_684_800))
            #expect(abs(points.last!.deviceDistanceMeters! - meters) <= 0.005)
        }
        #expect(throws: WriteError.invalidPace(0)) {
            try FITWriter(options: ExportOptions(paceSecondsPerKilometer: 0)).data(for: activity)
        }
    }

    @Test("a run's pauses become timer stop/start events the reader turns back into pauses")
    func pauses() throws {
        // Two segments 61 s apart, and a pause of the device's own inside the first one.
        var activity = CourseFileTestData.run(count: 20, segments: 2)
        let ownPause = DateInterval(start: CourseFileTestData.start.addingTimeInterval(3), duration: 2)
        activity.timerPauses = [ownPause]
        let data = try FITWriter(options: ExportOptions(kind: .run)).data(for: activity)
        let result = try FITReader().decode(from: MemoryByteStream(data))
        let gap = DateInterval(
            start: CourseFileTestData.start.addingTimeInterval(9), end: CourseFileTestData.start.addingTimeInterval(70))
        #expect(result.activity.timerPauses == [ownPause, gap])
        #expect(result.summary.timerStartEvents == 3 && result.summary.timerStopEvents == 3)
        #expect(result.activity.laps.count == 2)
        #expect(result.activity.laps.map(\.totals.timerTimeSeconds) == [7, 9])
        #expect(result.summary.sessions.first?.timerTimeSeconds == 16)
        #expect(result.summary.sessions.first?.elapsedTimeSeconds == 79)
        #expect(result.activity.deviceTotals?.sport == "running")
    }

    @Test("a run's times must be FIT dates (1998-07-03 to 2126-02-06)")
    func timeRange() throws {
        var activity = CourseFileTestData.run(count: 3)
        let early = Date(timeIntervalSince1970: 631_065_600 + 1000)  // 1989-12-31
        activity.tracks[0].segments[0].points[1].time = early
        #expect(throws: WriteError.timeOutOfRange(early)) {
            try FITWriter(options: ExportOptions(kind: .run)).data(for: activity)
        }
        #expect(try FITWriter().data(for: activity).count > 0, "a course's times are its own")
    }

    @Test("a long course name is cut at a character boundary; the course message keeps it")
    func name() throws {
        let name = String(repeating: "한강", count: 20)  // 120 bytes of UTF-8
        let bytes = FITWriter.nameBytes(name)
        #expect(bytes.count == 63 && String(decoding: bytes, as: UTF8.self) == String(repeating: "한강", count: 10) + "한")
        let data = try FITWriter(options: ExportOptions(name: name)).data(for: CourseFileTestData.run())
        #expect(data.range(of: Data(bytes + [0])) != nil)
    }
}
