import Foundation
import Testing

/// Records print as `record:R`, courses as `#C` (issue 34, item 15), and every command that takes
/// a record takes `record:R` (and plain `R`).
@Suite("runnect: record:R and #C (end to end)")
struct RecordIDCommandTests {
    @Test("import, records, record show/rename/delete and their errors say record:R; courses stay #C")
    func recordIDs() throws {
        let scratch = try StoreCommandTests.Scratch()
        let runs = try scratch.gpxFiles("runs", count: 2, latitude: 37.5)
        let file = runs.appendingPathComponent("run_0000.gpx").path
        let imported = try scratch.run(["import", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        let line = try #require(imported.stdoutLines.first)
        #expect(line.hasPrefix("recorded record:1  runs 0  "), "\(line)")
        #expect(line.contains("on course #1 runs 0"), "\(line)")

        let again = try scratch.run(["import", file])
        #expect(again.stderrLines == ["runnect: \(file): already recorded as record:1, skipped"], "\(again.stderr)")

        let records = try scratch.run(["records"])
        #expect(records.stdoutLines.first?.hasPrefix("record:1  runs 0  ") == true, "\(records.stdout)")
        let board = try scratch.run(["records", "--course", "1"])
        #expect(board.stdout.contains("record:1, 2025-05-01T06:00:00Z"), "\(board.stdout)")
        #expect(!board.stdout.contains("record #"), "\(board.stdout)")

        for id in ["record:1", "1"] {
            let shown = try scratch.run(["record", "show", id])
            #expect(shown.status == 0 && shown.stdout.hasPrefix("record:1  "), "\(id): \(shown.stderr)")
        }
        let renamed = try scratch.run(["record", "rename", "record:1", "새벽 런"])
        #expect(renamed.status == 0 && renamed.stdout.hasPrefix("record:1  새벽 런"), "\(renamed.stderr)")
        let missing = try scratch.run(["record", "show", "record:9"])
        #expect(
            missing.status == 1
                && missing.stderrLines == [
                    "runnect: error: record:9 not found among your records (see `runnect records`)"
                ], "\(missing.stderr)")
        let exported = try scratch.run(["export", "geojson", "record:9"])
        #expect(exported.stderr.contains("record:9: record:9 not found"), "\(exported.stderr)")
        let bad = try scratch.run(["record", "show", "course:1"])
        #expect(bad.status == 64 && bad.stderr.contains("record:R"), "\(bad.stderr)")
        // JSON keeps numeric ids.
        #expect(try scratch.objects(["record", "show", "record:1"]).first?["id"] as? Int == 1)

        _ = try scratch.run(["import", runs.appendingPathComponent("run_0001.gpx").path])
        let deleted = try scratch.run(["record", "delete", "record:1", "2"])
        #expect(deleted.status == 0 && deleted.stdout == "deleted record:1 record:2\n", "\(deleted.stderr)")
    }
}
