import Foundation
import Testing

/// `runnect stats` on FIT files, through the built binary.
@Suite("runnect stats on FIT files (end to end)")
struct StatsFITCommandTests {
    static let tracks = RunnectProcess.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/tracks")
    static var hasCorpus: Bool { FileManager.default.fileExists(atPath: tracks.appendingPathComponent("fit").path) }

    @Test("--json reports the device's totals and laps beside the geodesic figures",
          .enabled(if: hasCorpus, "../shared/tracks not found"))
    func json() throws {
        let file = Self.tracks.appendingPathComponent("fit/garmin_fr945_run_sloatsburg.fit").path
        let result = try RunnectProcess.run(["stats", "--json", file])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "fit")
        #expect(object["points"] as? Int == 4988)
        #expect(object["distance_m"] as? Double == 14156.762)
        #expect(object["device_distance_m"] as? Double == 14004.85)
        #expect(object["device_ascent_m"] as? Double == 347)
        #expect(object["device_timer_time_s"] as? Double == 4989.112)
        #expect(object["laps"] as? Int == 2)
        #expect(object["name"] as? String == "Running 2019-06-15 05:42")
    }

    @Test("text has a Device row; a truncated file gives figures and a warning naming the byte, exit 0",
          .enabled(if: hasCorpus, "../shared/tracks not found"))
    func textAndTruncated() throws {
        let run = Self.tracks.appendingPathComponent("fit/garmin_fr945_run_sloatsburg.fit").path
        let text = try RunnectProcess.run(["stats", run])
        #expect(text.status == 0)
        #expect(text.stdout.contains("(FIT, track)"))
        #expect(text.stdout.contains("Device       14.00 km · 1:23:09 timer · 1:23:09 elapsed · +347 m / −371 m · 982 kcal · 2 laps"),
                "\(text.stdout)")

        let truncated = Self.tracks.appendingPathComponent("edge/truncated_unexpected_eof.fit").path
        let result = try RunnectProcess.run(["stats", "--json", truncated])
        #expect(result.status == 0)
        #expect(result.stderr.contains("runnect: warning: \(truncated): byte 768: the file ends"), "\(result.stderr)")
        #expect(result.stdoutLines.count == 1)
    }

    @Test("a FIT file damaged before its first record is one error line naming the byte; exit 65")
    func damaged() throws {
        // A 14-byte header declaring 8 data bytes, then a data message of a local type never defined.
        var bytes: [UInt8] = [14, 0x20, 0x54, 0x08, 8, 0, 0, 0] + Array(".FIT".utf8) + [0, 0]
        bytes += [0x03, 1, 2, 3, 4, 5, 6, 7, 0, 0]
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-damaged-\(UUID().uuidString).fit")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let result = try RunnectProcess.run(["stats", url.path])
        #expect(result.status == 65)
        #expect(result.stderrLines == ["runnect: error: \(url.path): byte 14: data message of local type 3, "
                                       + "which no definition message declared"])
    }
}
