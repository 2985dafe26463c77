import Foundation
import RunnectTestSupport
import Testing

/// `runnect stats` on FIT files, through the built binary.
@Suite("runnect stats on FIT files (end to end)")
struct StatsFITCommandTests {
    static let run = "fit/garmin_fr945_run_sloatsburg.fit"

    @Test(
        "--json gives reference.json's record count, geodesic distance, session totals and laps; the name is a snapshot",
        .sharedCorpus)
    func json() throws {
        let result = try RunnectProcess.run(["stats", "--json", SharedCorpus.url(Self.run).path])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let reference = try #require(SharedCorpus.reference[Self.run])
        #expect(object["format"] as? String == "fit")
        #expect(object["points"] as? Int == reference["record_count"] as? Int)
        let distance = try #require(object["distance_m"] as? Double)
        let geodesic = try SharedCorpus.figure(Self.run, "length_2d_geodesic_m")
        let session = try SharedCorpus.figure(Self.run, "session_total_distance_m")
        let ascent = try SharedCorpus.sessionFigure(Self.run, "total_ascent_m")
        let timer = try SharedCorpus.sessionFigure(Self.run, "total_timer_time_s")
        #expect(abs(distance - geodesic) <= 0.001, "\(distance) vs \(geodesic)")
        #expect(object["device_distance_m"] as? Double == session)
        #expect(object["device_ascent_m"] as? Double == ascent)
        #expect(object["device_timer_time_s"] as? Double == timer)
        #expect(object["laps"] as? Int == reference["laps"] as? Int)
        #expect(object["name"] as? String == "Running 2019-06-15 05:42")  // ours, from the start time
    }

    @Test(
        "text has a Device row (snapshot of our formatting); a truncated file gives figures and a warning naming the byte, exit 0",
        .sharedCorpus)
    func textAndTruncated() throws {
        let text = try RunnectProcess.run(["stats", SharedCorpus.url(Self.run).path])
        #expect(text.status == 0)
        #expect(text.stdout.contains("(FIT, track)"))
        #expect(
            text.stdout.contains(
                "Device       14.00 km · 1:23:09 timer · 1:23:09 elapsed · +347 m / −371 m · 982 kcal · 2 laps"),
            "\(text.stdout)")

        let truncated = SharedCorpus.url("edge/truncated_unexpected_eof.fit").path
        // The file stops after its last whole byte: the damage is at its length.
        let size = try SharedCorpus.figure("edge/truncated_unexpected_eof.fit", "bytes")
        let result = try RunnectProcess.run(["stats", "--json", truncated])
        #expect(result.status == 0)
        #expect(
            result.stderr.contains("runnect: warning: \(truncated): byte \(Int(size)): the file ends"),
            "\(result.stderr)")
        #expect(result.stdoutLines.count == 1)
    }

    @Test("a FIT file damaged before its first record is one error line naming the byte; exit 65")
    func damaged() throws {
        // A 14-byte header declaring 8 data bytes, then a data message of a local type never defined.
        var bytes: [UInt8] = [14, 0x20, 0x54, 0x08, 8, 0, 0, 0] + Array(".FIT".utf8) + [0, 0]
        bytes += [0x03, 1, 2, 3, 4, 5, 6, 7, 0, 0]
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "runnect-damaged-\(UUID().uuidString).fit")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let result = try RunnectProcess.run(["stats", url.path])
        #expect(result.status == 65)
        #expect(
            result.stderrLines == [
                "runnect: error: \(url.path): byte 14: data message of local type 3, "
                    + "which no definition message declared"
            ])
    }
}
