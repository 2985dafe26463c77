import Foundation
import Testing

@testable import RunnectKit

@Suite("GPX reader")
struct GPXReaderTests {
    static func read(_ xml: String) throws -> Activity {
        try ActivityReader.read(from: MemoryByteStream(xml))
    }

    @Test("GPX 1.1: metadata, tracks, segments, extensions under any prefix")
    func gpx11() throws {
        let activity = try Self.read(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Runnect test" xmlns="http://www.topografix.com/GPX/1/1"
                 xmlns:tpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
              <metadata><name>반포 한강 &amp; 잠수교</name><desc>밤 러닝</desc><time>2025-05-03T12:00:00Z</time></metadata>
              <trk><name>Run</name><type>running</type>
                <trkseg>
                  <trkpt lat="37.5100" lon="127.0600"><ele>12.5</ele><time>2025-05-03T21:00:00+09:00</time>
                    <extensions><tpx:TrackPointExtension><tpx:hr>141</tpx:hr><tpx:cad>86</tpx:cad><tpx:atemp>18.5</tpx:atemp></tpx:TrackPointExtension></extensions>
                  </trkpt>
                  <trkpt lat="37.5112" lon="127.0621"><time>2025-05-03T12:00:05.5Z</time></trkpt>
                </trkseg>
                <trkseg/>
              </trk>
              <rte><name>plan</name><rtept lat="1" lon="2"><name>A</name></rtept></rte>
              <wpt lat="37.5" lon="127.0"><name>출발</name></wpt>
            </gpx>
            """)
        #expect(activity.format == .gpx11)
        #expect(activity.metadata.name == "반포 한강 & 잠수교")
        #expect(activity.metadata.description == "밤 러닝")
        #expect(activity.metadata.creator == "Runnect test")
        #expect(activity.metadata.time == Date(timeIntervalSince1970: 1_746_273_600))
        #expect(activity.tracks.count == 1)
        #expect(activity.tracks[0].name == "Run" && activity.tracks[0].type == "running")
        #expect(activity.tracks[0].segments.map(\.points.count) == [2, 0])
        let first = activity.tracks[0].segments[0].points[0]
        #expect(first.latitude == 37.51 && first.longitude == 127.06)
        #expect(first.elevationMeters == 12.5)
        #expect(first.time == Date(timeIntervalSince1970: 1_746_273_600))
        #expect(first.heartRateBPM == 141 && first.cadence == 86 && first.temperatureCelsius == 18.5)
        let second = activity.tracks[0].segments[0].points[1]
        #expect(second.elevationMeters == nil && second.heartRateBPM == nil)
        #expect(second.time == Date(timeIntervalSince1970: 1_746_273_605.5))
        #expect(activity.routes == [Route(name: "plan", points: [TrackPoint(latitude: 1, longitude: 2)])])
        #expect(activity.waypoints == [Waypoint(name: "출발", point: TrackPoint(latitude: 37.5, longitude: 127))])
        #expect(activity.warnings.isEmpty)
    }

    @Test("GPX 1.0 without namespace; zone-less times are UTC, with a warning")
    func gpx10ZonelessTimes() throws {
        let activity = try Self.read(
            """
            <gpx version="1.0"><name>old</name><time>2010-10-03T09:36:30</time>
            <trk><trkseg><trkpt lat="45.1" lon="14.2"><time>2010-10-03T09:36:30</time><speed>2.1</speed></trkpt></trkseg></trk></gpx>
            """)
        #expect(activity.format == .gpx10)
        #expect(activity.metadata.name == "old")
        #expect(activity.tracks[0].segments[0].points[0].time == Date(timeIntervalSince1970: 1_286_098_590))
        #expect(activity.warnings == ["times without a time zone were taken as UTC"])
    }

    @Test(
        "bad values name the line",
        arguments: [
            ("<gpx>\n<trk><trkseg>\n<trkpt lat=\"x\" lon=\"1\"/></trkseg></trk></gpx>", "invalid lat", 3),
            ("<gpx>\n<trk><trkseg><trkpt lon=\"1\"/></trkseg></trk></gpx>", "no lat attribute", 2),
            ("<gpx>\n<wpt lat=\"1\" lon=\"181\"/></gpx>", "outside -180…180", 2),
            (
                "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"1\">\n<ele>high</ele></trkpt></trkseg></trk></gpx>",
                "invalid elevation", 2
            ),
            (
                "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"1\">\n\n<time>yesterday</time></trkpt></trkseg></trk></gpx>",
                "invalid time", 3
            ),
            (
                "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"1\">\n<time>0999-04-07T06:00:00Z</time></trkpt></trkseg></trk></gpx>",
                "invalid time \"0999-04-07T06:00:00Z\": only the years 1900–9999 (UTC) are read", 2
            ),
            (
                "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"1\">\n<time>9999-12-31T23:59:60Z</time></trkpt></trkseg></trk></gpx>",
                "only the years 1900–9999 (UTC) are read", 2
            ),
            (
                "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"1\">\n<time>10000-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>",
                "invalid time \"10000-01-01T00:00:00Z\"", 2
            ),
            ("<gpx><metadata>\n<time>1899-12-31T23:59:59Z</time></metadata></gpx>", "only the years 1900–9999", 2),
        ])
    func badValues(_ xml: String, _ fragment: String, _ line: Int) throws {
        let error = try #require(throws: ReadError.self) { try Self.read(xml) }
        #expect(error.description.contains(fragment), "\(error)")
        #expect(error.line == line, "\(error)")
    }

    @Test(
        "a bad value spanning lines is quoted on one line, escaped and shortened",
        arguments: [
            (
                "<gpx><wpt lat=\",\n  [127.019523, 37.520\" lon=\"1\"/></gpx>",
                #"has an invalid lat ",\n  [127.019523, 37.520""#
            ),
            (
                "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"1\"><time>\n  yester\u{1}day\n</time></trkpt></trkseg></trk></gpx>",
                #"invalid time "yester\u{01}day""#
            ),
            (
                "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"1\"><ele>" + String(repeating: "x", count: 500)
                    + "</ele></trkpt></trkseg></trk></gpx>",
                "invalid elevation \"" + String(repeating: "x", count: 60) + "…\""
            ),
        ])
    func badValueOnOneLine(_ xml: String, _ fragment: String) throws {
        // Found by the XML fuzz target: the value's line break went into the message.
        let error = try #require(throws: ReadError.self) { try Self.read(xml) }
        #expect(error.description.contains(fragment), "\(error)")
        #expect(!error.description.contains("\n"), "\(error)")
    }

    @Test("a root that is not <gpx> is refused by name")
    func notGPX() throws {
        let error = try #require(throws: ReadError.self) { try Self.read("<kml><Document/></kml>") }
        #expect(error.description.contains("<kml>"))
    }
}
