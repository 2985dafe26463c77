import Foundation
import Testing

/// `runnect stats` on files whose times go backwards, leap seconds and years it does not read.
@Suite("runnect stats: times going backwards (end to end)")
struct StatsTimeOrderCommandTests {
    /// A GPX run of `times.count` points 10 m apart heading east, with the given `<time>` texts.
    static func gpx(_ times: [String]) -> String {
        var text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\"><trk><trkseg>\n"
        for (index, time) in times.enumerated() {
            text += "<trkpt lat=\"37.52\" lon=\"\(127.12 + Double(index) * 0.000113)\"><time>\(time)</time></trkpt>\n"
        }
        return text + "</trkseg></trk></gpx>\n"
    }

    /// `count` times 3 s apart from 2024-04-07T06:00:00Z.
    static func times(_ count: Int) -> [String] {
        (0..<count).map { String(format: "2024-04-07T06:%02d:%02dZ", $0 * 3 / 60, $0 * 3 % 60) }
    }

    static func object(_ result: RunnectProcess.Result) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
    }

    @Test("a fix stamped a year back mid-run: the run's own elapsed time, and a warning naming the point")
    func yearBack() throws {
        var times = Self.times(20)
        times[10] = "2023-04-08T06:00:30Z"
        let json = try RunnectProcess.run(["stats", "--json", "--splits", "-"], stdin: Self.gpx(times))
        #expect(json.status == 0, "\(json.stderr)")
        let object = try Self.object(json)
        #expect(object["elapsed_time_s"] as? Double == 57)
        #expect(object["moving_time_s"] as? Double == 57)
        #expect(object["end_time"] as? String == "2024-04-07T06:00:57Z")
        let warning =
            "segment 1, point 11: the time goes back 364 day(s) 23:59:57, from 2024-04-07T06:00:27Z "
            + "(segment 1, point 10) to 2023-04-08T06:00:30Z; the time of segment 1, point 11 is left out"
        #expect(object["warnings"] as? [String] == [warning])
        #expect(json.stderr == "runnect: warning: -: \(warning)\n")
        for split in try #require(object["splits"] as? [[String: Any]]) {
            #expect((split["elapsed_time_s"] as? Double ?? -1) >= 0)
        }

        let text = try RunnectProcess.run(["stats", "-"], stdin: Self.gpx(times))
        #expect(text.status == 0)
        #expect(text.stdout.contains("Time         0:00:57 elapsed · 0:00:57 moving"), "\(text.stdout)")
    }

    @Test("times all reversed: 0:00:00 elapsed, never negative; warnings capped with a count")
    func reversed() throws {
        let gpx = Self.gpx(Self.times(30).reversed())
        let text = try RunnectProcess.run(["stats", "--splits", "-"], stdin: gpx)
        #expect(text.status == 0)
        #expect(text.stdout.contains("Time         0:00:00 elapsed · 0:00:00 moving"), "\(text.stdout)")
        #expect(!text.stdout.contains("-0:") && !text.stdout.contains("0'00\""), "\(text.stdout)")
        let warnings = text.stderr.split(separator: "\n")
        #expect(warnings.count == 21)
        #expect(warnings.last == "runnect: warning: -: and 9 more step(s) back in time")

        let json = try Self.object(RunnectProcess.run(["stats", "--json", "-"], stdin: gpx))
        #expect(json["elapsed_time_s"] as? Double == 0)
        #expect(json["moving_time_s"] as? Double == 0)
        #expect(json["avg_pace_s_per_km"] is NSNull)
        #expect(json["max_speed_m_s"] is NSNull)
        #expect((json["warnings"] as? [String])?.count == 21)
    }

    @Test("a leap second reads as the next second")
    func leapSecond() throws {
        let gpx = Self.gpx(["2016-12-31T23:59:57Z", "2016-12-31T23:59:60Z", "2017-01-01T00:00:03Z"])
        let json = try Self.object(RunnectProcess.run(["stats", "--json", "-"], stdin: gpx))
        #expect(json["elapsed_time_s"] as? Double == 6)
        #expect(json["warnings"] as? [String] == [])
    }

    @Test(
        "a year outside 1900–9999 is an error naming the line",
        arguments: [
            ("0999-04-07T06:00:00Z", ": only the years 1900–9999 (UTC) are read"),
            ("10000-01-01T00:00:00Z", ""),
        ])
    func yearOutOfRange(time: String, reason: String) throws {
        var times = Self.times(5)
        times[3] = time
        let result = try RunnectProcess.run(["stats", "-"], stdin: Self.gpx(times))
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("runnect: error: -: line 6, column "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix(": invalid time \"\(time)\"\(reason)\n"), "\(result.stderr)")
    }

    @Test("TCX: the warning names the activity it belongs to")
    func tcxActivityLabel() throws {
        func activity(_ times: [String]) -> String {
            var text = "<Activity Sport=\"Running\"><Id>\(times[0])</Id><Lap StartTime=\"\(times[0])\"><Track>"
            for (index, time) in times.enumerated() {
                text +=
                    "<Trackpoint><Time>\(time)</Time><Position><LatitudeDegrees>\(37.5 + Double(index) * 0.0001)"
                    + "</LatitudeDegrees><LongitudeDegrees>127.0</LongitudeDegrees></Position></Trackpoint>"
            }
            return text + "</Track></Lap></Activity>"
        }
        let forward = Self.times(4)
        let tcx =
            "<?xml version=\"1.0\"?>\n<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/"
            + "TrainingCenterDatabase/v2\"><Activities>\(activity(forward))\(activity([forward[0], forward[2], forward[1], forward[3]]))"
            + "</Activities></TrainingCenterDatabase>"
        let result = try RunnectProcess.run(["stats", "-"], stdin: tcx)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr == "runnect: warning: - [2/2]: segment 1, point 3: the time goes back 0:00:03, from "
                + "2024-04-07T06:00:06Z (segment 1, point 2) to 2024-04-07T06:00:03Z; the time of segment 1, point 3 is left out\n"
        )
        #expect(!result.stdout.contains("-0:"))
    }
}
