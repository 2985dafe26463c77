import Foundation
import Testing

/// `--units km|mi` (issue 34, item 16): distances, paces and splits in miles for people;
/// `--json` stays metric.
@Suite("runnect --units mi (end to end)")
struct UnitsCommandTests {
    static let banpo = "SampleTracks/banpo_hangang_night_run.gpx"

    @Test("stats --units mi: miles, pace per mile, splits per mile; --json unchanged")
    func stats() throws {
        let miles = try RunnectProcess.run(["stats", "--units", "mi", "--splits", Self.banpo])
        #expect(miles.status == 0, "\(miles.stderr)")
        // 10,137.6 m is 6.30 mi (3D 10,163.0 m, 6.32 mi); 343.57 s/km is 552.9 s, 9'13", a mile.
        #expect(miles.stdout.contains("Distance     6.30 mi  (3D 6.32 mi)"), "\(miles.stdout)")
        #expect(miles.stdout.contains("Pace         9'13\"/mi avg"), "\(miles.stdout)")
        #expect(miles.stdout.contains("      #   distance     time     pace   elevation"), "\(miles.stdout)")
        let splits = miles.stdoutLines.filter { $0.hasPrefix("      1  ") || $0.hasPrefix("      6  ") }
        #expect(splits.count == 2 && splits.allSatisfy { $0.contains(" 1.00 mi ") }, "\(miles.stdout)")
        #expect(miles.stdoutLines.contains { $0.hasPrefix("      7    0.30 mi") }, "\(miles.stdout)")
        #expect(!miles.stdout.contains(" km"), "\(miles.stdout)")

        let km = try RunnectProcess.run(["stats", "--units", "km", "--splits", Self.banpo])
        #expect(km.stdout == (try RunnectProcess.run(["stats", "--splits", Self.banpo])).stdout)
        let json = try RunnectProcess.run(["stats", "--json", "--units", "mi", Self.banpo])
        #expect(json.stdout == (try RunnectProcess.run(["stats", "--json", Self.banpo])).stdout)
        let bad = try RunnectProcess.run(["stats", "--units", "furlong", Self.banpo])
        #expect(bad.status == 64, "\(bad.stderr)")
    }

    @Test("import, list, search, show and records in miles; --json unchanged")
    func store() throws {
        let scratch = try StoreCommandTests.Scratch()
        let imported = try scratch.run(["import", Self.banpo, "--units", "mi"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("  6.30 mi  "), "\(imported.stdout)")
        #expect(imported.stdout.contains("/mi"), "\(imported.stdout)")
        let list = try scratch.run(["list", "--units", "mi"])
        #expect(list.stdout.contains("  6.30 mi  9'13\"/mi  "), "\(list.stdout)")
        let shown = try scratch.run(["show", "1", "--units", "mi"])
        #expect(shown.stdout.contains("Distance     6.30 mi"), "\(shown.stdout)")
        #expect(shown.stdout.contains("/mi"), "\(shown.stdout)")
        _ = try scratch.run(["upload", "1", "--title", "반포 10K", "--description", "밤"])
        let found = try scratch.run(["search", "반포", "--units", "mi"])
        #expect(found.stdout.contains("  6.30 mi  "), "\(found.stdout)")
        let records = try scratch.run(["records", "--units", "mi"])
        #expect(records.stdout.contains("  6.30 mi  ") && records.stdout.contains("/mi"), "\(records.stdout)")
        #expect(!records.stdout.contains("km"), "\(records.stdout)")
        #expect(
            try scratch.run(["list", "--json", "--units", "mi"]).stdout == (try scratch.run(["list", "--json"])).stdout)
    }
}
