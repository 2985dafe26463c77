import Foundation
import RunnectKit
import Testing

/// `search --near` and `list --near` end to end: real processes on a real database file.
@Suite("runnect near-me search (end to end)")
struct NearbyCommandTests {
    typealias Scratch = StoreCommandTests.Scratch

    /// Three drawn courses in Seoul (two shared) and one in Busan (shared).
    static func populate(_ scratch: Scratch) throws {
        let courses: [(String, String, Bool)] = [
            // A leg of 1.6 km passing 300 m south of Jamsil station: only its middle is near.
            ("37.5086,127.0885 37.5086,127.1085", "잠실 강변 10K", true),
            ("37.5300,127.0000 37.5350,127.0050", "반포 강변", true),
            ("37.5120,127.0990 37.5130,127.1000", "잠실 비밀 코스", false),
            ("35.1587,129.1604 35.1600,129.1650", "해운대 강변", true),
        ]
        for (taps, title, shared) in courses {
            let drawn = try scratch.objects(["draw", "--points", taps, "--title", title])[0]
            if shared {
                let id = "\(drawn["id"] as! Int)"
                let result = try scratch.run(["upload", id, "--title", title, "--description", "강변 코스"])
                #expect(result.status == 0, "\(result.stderr)")
            }
        }
    }

    @Test("list --shared --near: within 5 km by default, closest first, the distance shown and in --json as away_m")
    func listNear() throws {
        let scratch = try Scratch()
        try Self.populate(scratch)
        let jamsil = "37.5113,127.0985"
        let objects = try scratch.objects(["list", "--shared", "--near", jamsil])
        #expect(objects.map { $0["id"] as? Int } == [1])
        // 37.5113 − 37.5086 = 0.0027° of latitude at 37.5°: 299.6 m to the leg's ends' parallel.
        let away = try #require(objects.first?["away_m"] as? Double)
        let expected = try #require(
            Geodesic.distance(
                from: Coordinate(latitude: 37.5113, longitude: 127.0985),
                to: Coordinate(latitude: 37.5086, longitude: 127.0985)))
        // The leg is a geodesic, not a parallel: its middle bows 4.7 cm north, towards the point
        // (L² tan φ / 8R for L = 1.77 km at 37.5°).
        #expect((0.04...0.05).contains(expected - away), "\(away) vs \(expected)")
        #expect(objects.first?["distance_m"] as? Double != nil, "the course's own length stays")

        let wide = try scratch.objects(["list", "--shared", "--near", jamsil, "--within", "12"])
        #expect(wide.map { $0["id"] as? Int } == [1, 2])
        let text = try scratch.run(["list", "--shared", "--near", jamsil, "--within", "12"])
        #expect(text.status == 0)
        #expect(text.stdoutLines.first?.hasPrefix("#1  300 m away  잠실 강변 10K") == true, "\(text.stdout)")
        #expect(text.stdoutLines.last?.contains("km away  반포 강변") == true, "\(text.stdout)")
        // The user's own courses, private ones included.
        let mine = try scratch.objects(["list", "--near", jamsil])
        #expect(mine.map { $0["id"] as? Int } == [3, 1])
        let none = try scratch.run(["list", "--shared", "--near", "0,-30"])
        #expect(none.stdout == "no courses\n")
    }

    @Test("search --near: keywords kept in their order among the courses near; without keywords closest first")
    func searchNear() throws {
        let scratch = try Scratch()
        try Self.populate(scratch)
        let busan = try scratch.objects(["search", "강변", "--near", "35.16,129.16"])
        #expect(busan.map { $0["id"] as? Int } == [4])
        let all = try scratch.objects(["search", "--near", "37.5113,127.0985", "--all", "--within", "1"])
        #expect(all.map { $0["id"] as? Int } == [3, 1])
        let seoul = try scratch.objects(["search", "강변", "--near", "37.52,127.05", "--within", "20", "--sort", "date"])
        #expect(seoul.map { $0["id"] as? Int } == [2, 1])
    }

    @Test(
        "bad values end with one line saying what to give, and exit non-zero",
        arguments: [
            (["search", "--near", "37.5"], "--near 37.5: give the point as LAT,LON in degrees"),
            (["search", "--near", "91,0"], "--near 91,0: give the point as LAT,LON"),
            (["list", "--near", "37.5,abc"], "--near 37.5,abc: give the point as LAT,LON"),
            (["search", "--near", "37.5,127", "--within", "0"], "--within 0.0: give a distance in kilometres"),
            (["list", "--near", "37.5,127", "--within", "5000"], "at most 1000"),
            (["list", "--within", "3"], "--within needs --near LAT,LON"),
            (["search"], "Give keywords to search for, or --near LAT,LON"),
            (["search", "--near", "37.5,127", "--sort", "date"], "--sort orders keyword matches"),
            (["list", "--shared", "--near", "37.5,127", "--sort", "date"], "--near lists courses closest first"),
        ])
    func refusals(_ arguments: [String], _ message: String) throws {
        let scratch = try Scratch()
        let result = try scratch.run(arguments)
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
