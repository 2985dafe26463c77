import Foundation
import RunnectTestSupport
import Testing

@Suite("runnect stats (end to end)")
struct StatsCommandTests {
    static let samples = [
        "SampleTracks/banpo_hangang_night_run.gpx", "SampleTracks/namsan_loop_two_segments.gpx",
        "SampleTracks/olympic_park_route.gpx", "SampleTracks/seokchon_lake_tapped.json",
        "SampleTracks/yeouido_tapped_pairs.json", "SampleTracks/cheonggyecheon_tapped.geojson",
        "SampleTracks/gyeongui_line_forest_gpx10.gpx",
    ]

    static let requiredKeys = [
        "file", "format", "points", "segments", "distance_m", "distance_3d_m", "elapsed_time_s",
        "moving_time_s", "avg_pace_s_per_km", "moving_pace_s_per_km", "max_speed_m_s",
        "elevation_gain_m", "elevation_loss_m", "min_elevation_m", "max_elevation_m", "bounds",
        "start_time", "end_time", "avg_heart_rate_bpm", "max_heart_rate_bpm", "avg_cadence_spm",
    ]

    static func objects(_ result: RunnectProcess.Result) throws -> [[String: Any]] {
        try result.stdoutLines.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "not JSON: \($0)")
        }
    }

    @Test("--json prints one object per file with every documented key, null where data is missing")
    func jsonLines() throws {
        let result = try RunnectProcess.run(["stats", "--json", "--splits"] + Self.samples)
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try Self.objects(result)
        #expect(objects.count == Self.samples.count)
        for (object, file) in zip(objects, Self.samples) {
            #expect(object["file"] as? String == file)
            for key in Self.requiredKeys { #expect(object.keys.contains(key), "\(file): no \(key)") }
            #expect(object["splits"] is [Any], "\(file)")
            #expect((object["distance_m"] as? Double ?? 0) > 1000, "\(file)")
        }
        let tapped = try #require(
            objects.first { ($0["file"] as? String)?.hasSuffix("seokchon_lake_tapped.json") == true })
        #expect(tapped["elapsed_time_s"] is NSNull)
        #expect(tapped["avg_pace_s_per_km"] is NSNull)
        #expect(tapped["format"] as? String == "points-json")
        let run = objects[0]
        #expect(run["format"] as? String == "gpx-1.1")
        #expect(run["avg_heart_rate_bpm"] is Double)
        #expect((run["moving_time_s"] as! Double) < (run["elapsed_time_s"] as! Double), "the pause is not moving")
    }

    @Test("text output is a runner's summary")
    func text() throws {
        let result = try RunnectProcess.run(["stats", Self.samples[0]])
        #expect(result.status == 0)
        #expect(result.stdout.contains(" km"))
        #expect(result.stdout.range(of: #"\d+'\d\d"/km"#, options: .regularExpression) != nil, "\(result.stdout)")
        #expect(result.stdout.range(of: #"\d:\d\d:\d\d elapsed"#, options: .regularExpression) != nil)
    }

    @Test("tapped points from --points, --points-file and standard input")
    func tappedPoints() throws {
        let taps = "37.5100,127.0600 37.5112,127.0621 37.5125,127.0644"
        let fromFlag = try RunnectProcess.run(["stats", "--json", "--points", taps])
        let fromStdin = try RunnectProcess.run(["stats", "--json", "-"], stdin: taps)
        let fromFile = try RunnectProcess.run([
            "stats", "--json", "--points-file", "SampleTracks/yeouido_tapped_pairs.json",
        ])
        for result in [fromFlag, fromStdin, fromFile] { #expect(result.status == 0, "\(result.stderr)") }
        let a = try Self.objects(fromFlag)[0]
        let b = try Self.objects(fromStdin)[0]
        #expect(a["distance_m"] as? Double == b["distance_m"] as? Double)
        #expect((a["distance_m"] as! Double) > 400 && (a["distance_m"] as! Double) < 500)
    }

    @Test("a bad file is named on stderr with its line; the other files are still processed; exit 65")
    func badFileAmongGoodOnes() throws {
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-bad-\(getpid()).gpx")
        try "<gpx>\n<trk><trkseg>\n<trkpt lat=\"37.5\" lon=\"127\">\n".write(to: bad, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: bad) }
        let result = try RunnectProcess.run(["stats", "--json", bad.path, Self.samples[0]])
        #expect(result.status == 65)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains(bad.path) && result.stderr.contains("line 4"), "\(result.stderr)")
        #expect(try Self.objects(result).count == 1)
    }

    @Test("a missing file exits 66, a usage error 64")
    func exitCodes() throws {
        #expect(try RunnectProcess.run(["stats", "no/such/file.gpx"]).status == 66)
        #expect(try RunnectProcess.run(["stats", "--moving-threshold", "-1", Self.samples[0]]).status == 64)
        #expect(try RunnectProcess.run(["stats", "--no-such-flag"]).status == 64)
    }

    @Test("the spike gate and the steep-ground rule follow their flags; 0 turns each off")
    func accuracyFlags() throws {
        // Ten minutes of hiking at 0.3 m/s up 800 m/h, one fix a second, with an 80 m spike at 10–12 s.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-climb-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let start = Date(timeIntervalSince1970: 1_712_469_600)
        var gpx = #"<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"#
        for second in 0...600 {
            let elevation = 1000 + Double(second) * 800 / 3600 + ((10...12).contains(second) ? 80 : 0)
            let time = ISO8601DateFormatter().string(from: start.addingTimeInterval(Double(second)))
            gpx += #"<trkpt lat="37.5" lon="\#(127 + Double(second) * 0.3 / 88_390)">"#
            gpx += "<ele>\(elevation)</ele><time>\(time)</time></trkpt>"
        }
        gpx += "</trkseg></trk></gpx>"
        let file = folder.appendingPathComponent("climb.gpx")
        try gpx.write(to: file, atomically: true, encoding: .utf8)

        let figures = try Self.objects(try RunnectProcess.run(["stats", "--json", file.path]))[0]
        #expect(figures["moving_time_s"] as? Double == 600)
        #expect((figures["elevation_gain_m"] as? Double ?? 0) < 134)
        #expect((figures["max_elevation_m"] as? Double ?? 0) < 1134)
        let off = try Self.objects(
            try RunnectProcess.run([
                "stats", "--json", "--moving-climb-rate", "0", "--elevation-spike-rate", "0", file.path,
            ]))[0]
        #expect(off["moving_time_s"] as? Double == 0)
        #expect((off["elevation_gain_m"] as? Double ?? 0) > 200, "the spike up and back")
        let strict = try Self.objects(
            try RunnectProcess.run(["stats", "--json", "--moving-climb-min-speed", "0.4", file.path]))[0]
        #expect(strict["moving_time_s"] as? Double == 0)
        for flag in ["--moving-climb-window", "--moving-climb-rate", "--elevation-spike-slack"] {
            #expect(try RunnectProcess.run(["stats", flag, "-1", file.path]).status == 64, "\(flag)")
        }
    }

    @Test(
        "--json output parses with jq",
        .requires(ExternalTool.path("jq") != nil, "jq is not on PATH: run scripts/setup.sh --test"))
    func jq() throws {
        let stats = try RunnectProcess.run(["stats", "--json"] + Self.samples)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(ExternalTool.path("jq")))
        process.arguments = ["-s", "map(.distance_m) | length"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(stats.stdout.utf8))
        try input.fileHandleForWriting.close()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try? output.fileHandleForReading.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(printed.trimmingCharacters(in: .whitespacesAndNewlines) == "\(Self.samples.count)")
    }
}
