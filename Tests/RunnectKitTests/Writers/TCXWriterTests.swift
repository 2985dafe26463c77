import Foundation
import Testing

@testable import RunnectKit

@Suite("TCX writer")
struct TCXWriterTests {
    @Test("a course name is cut to the 15 characters TCX allows, never inside a character")
    func courseName() {
        #expect(TCXWriter.courseName("남산 순환로 아침 러닝 코스 A-B") == "남산 순환로 아침 러닝 코스")
        #expect(TCXWriter.courseName("Olympic Park loop, the long way") == "Olympic Park lo")
        // Decomposed Hangul: 3 scalars a syllable, so 5 syllables fill the 15.
        let decomposed = "한강공원러닝길".decomposedStringWithCanonicalMapping
        #expect(TCXWriter.courseName(decomposed) == "한강공원러".decomposedStringWithCanonicalMapping)
        #expect(TCXWriter.courseName("short") == "short")
        #expect(TCXWriter.courseName("   ") == "Course")
    }

    @Test("a course: one lap of the path's geodesic length and its time at the pace; Start and Finish points")
    func course() throws {
        let positions = [(37.5, 127.0), (37.501, 127.0), (37.501, 127.002), (37.5025, 127.002)]
        let activity = CourseFileTestData.course(positions, name: "Seokchon & <Lake>")
        let text = String(
            decoding: try TCXWriter(options: ExportOptions(paceSecondsPerKilometer: 300)).data(for: activity),
            as: UTF8.self)
        let meters = Geodesic.length(of: positions.map { Coordinate(latitude: $0.0, longitude: $0.1) })
        let millimetres = (meters * 1000).rounded() / 1000
        #expect(text.contains("<Name>Seokchon &amp; &lt;Lak</Name>"))
        #expect(text.contains("<DistanceMeters>\(millimetres)</DistanceMeters><Intensity>Active</Intensity></Lap>"))
        #expect(text.contains("<TotalTimeSeconds>\(((meters * 300).rounded()) / 1000)</TotalTimeSeconds>"))
        let back = try TCXReader().read(from: MemoryByteStream(text))
        #expect(back.routes.count == 1 && back.routes[0].points.count == 4)
        #expect(back.routes[0].points.map(\.coordinate) == activity.courseSegments[0].map(\.coordinate))
        #expect(back.waypoints.map(\.name) == ["Start", "Finish"])
        #expect(
            back.waypoints.map(\.point.coordinate)
                == [positions.first!, positions.last!].map {
                    Coordinate(latitude: $0.0, longitude: $0.1)
                })
        // DistanceMeters accumulated geodesically, and the time at 5:00 per km.
        let last = try #require(back.routes[0].points.last)
        #expect(last.deviceDistanceMeters == millimetres)
        let seconds = try #require(last.time).timeIntervalSince(Date(timeIntervalSince1970: 946_684_800))
        #expect(abs(seconds - meters * 0.3) < 0.001)
    }

    @Test("a run: a lap per segment, its timer time and distance, heart rate figures, RunCadence")
    func run() throws {
        let activity = CourseFileTestData.run(count: 20, segments: 2)
        let text = String(
            decoding: try TCXWriter(options: ExportOptions(kind: .run)).data(for: activity), as: UTF8.self)
        let back = try TCXReader().read(from: MemoryByteStream(text))
        #expect(back.laps.count == 2)
        #expect(back.tracks[0].segments.map(\.points.count) == [10, 10])
        // Points 0–9 one a second; the second segment starts 61 s after the tenth point.
        #expect(back.laps.map(\.totals.timerTimeSeconds) == [9, 9])
        #expect(
            back.laps.map(\.startTime) == [CourseFileTestData.start, CourseFileTestData.start.addingTimeInterval(70)])
        let lengths = activity.courseSegments.map { points in Geodesic.length(of: points.map(\.coordinate)) }
        for (lap, length) in zip(back.laps, lengths) {
            #expect(abs((lap.totals.distanceMeters ?? 0) - length) <= 0.0005)
        }
        #expect(text.contains("<AverageHeartRateBpm><Value>145</Value></AverageHeartRateBpm>"))
        #expect(text.contains("<ns3:TPX><ns3:RunCadence>85</ns3:RunCadence></ns3:TPX>"))
        #expect(back.tracks[0].segments[0].points.allSatisfy { $0.cadence == 85 && $0.heartRateBPM != nil })
        #expect(back.metadata.time == CourseFileTestData.start)
    }

    @Test("a run's points without a position keep their time and heart rate, without <Position>")
    func unpositioned() throws {
        var activity = CourseFileTestData.run(count: 6)
        activity.tracks[0].segments[0].points[2].latitude = .nan
        activity.tracks[0].segments[0].points[2].longitude = .nan
        let back = try TCXReader().read(
            from: MemoryByteStream(try TCXWriter(options: ExportOptions(kind: .run)).data(for: activity)))
        let points = back.tracks[0].segments[0].points
        #expect(points.count == 6)
        #expect(points[2].latitude.isNaN && points[2].time != nil && points[2].heartRateBPM == 142)
        // The leg passes over the point without a position: 1 → 3 is one geodesic.
        let leg = try #require(Geodesic.distance(from: points[1].coordinate, to: points[3].coordinate))
        let before = try #require(points[1].deviceDistanceMeters)
        #expect(points[2].deviceDistanceMeters == before)
        #expect(abs(try #require(points[3].deviceDistanceMeters) - (before + leg)) <= 0.0011)
    }
}
