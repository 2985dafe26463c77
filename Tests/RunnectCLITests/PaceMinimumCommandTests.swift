import Foundation
import RunnectKit
import Testing

/// No pace over a distance shorter than `Pace.minimumMeters` (issue 34, item 8): a run of a
/// nanometre read 10¹³ s/km in `list` and `records --json`.
@Suite("runnect: no pace under the minimum distance (end to end)")
struct PaceMinimumCommandTests {
    /// A GPX run of two fixes `latitudeStep` degrees apart (north), 600 s apart.
    static func gpx(latitudeStep: String) -> String {
        """
        <?xml version="1.0"?>
        <gpx version="1.1" creator="test"><trk><name>Stand still</name><trkseg>
        <trkpt lat="37.52" lon="127.12"><time>2024-04-07T06:00:00Z</time></trkpt>
        <trkpt lat="\(latitudeStep)" lon="127.12"><time>2024-04-07T06:10:00Z</time></trkpt>
        </trkseg></trk></gpx>

        """
    }

    @Test("a run of a nanometre: no pace in stats, list and records, JSON null and no figure in text")
    func nanometreRun() throws {
        let scratch = try StoreCommandTests.Scratch()
        let file = scratch.folder.appendingPathComponent("nanometre.gpx")
        // 37.52 + 1e-14°: the next double but one, about 1.1 nm north.
        try Self.gpx(latitudeStep: "37.52000000000001").write(to: file, atomically: true, encoding: .utf8)

        let stats = try RunnectProcess.run(["stats", "--json", file.path])
        #expect(stats.status == 0, "\(stats.stderr)")
        let object = try #require(
            JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any], "\(stats.stdout)")
        let meters = try #require(object["distance_m"] as? Double)
        #expect(meters < 1e-6)
        #expect(object["elapsed_time_s"] as? Double == 600)
        #expect(object["avg_pace_s_per_km"] is NSNull, "\(object)")
        let text = try RunnectProcess.run(["stats", file.path])
        #expect(text.stdout.contains("Pace         –/km avg · –/km moving"), "\(text.stdout)")

        let imported = try scratch.objects(["import", file.path])
        #expect(imported.count == 1, "\(imported)")
        let listed = try #require(try scratch.objects(["list"]).first)
        let listedStats = try #require(listed["stats"] as? [String: Any])
        #expect(listedStats["avg_pace_s_per_km"] is NSNull, "\(listedStats)")
        let list = try scratch.run(["list"])
        #expect(list.status == 0 && !list.stdout.contains("/km"), "\(list.stdout)")

        let record = try #require(try scratch.objects(["records"]).first)
        #expect(record["avg_pace_s_per_km"] is NSNull, "\(record)")
        #expect(record["course_pace_s_per_km"] is NSNull, "\(record)")
        let records = try scratch.run(["records"])
        #expect(records.status == 0 && !records.stdout.contains("/km"), "\(records.stdout)")
    }
}
