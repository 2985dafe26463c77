import Foundation
import GRDB
import RunnectStore
import Testing

/// The store commands end to end: real processes on a real database file.
@Suite("runnect store commands (end to end)")
struct StoreCommandTests {
    /// A scratch folder with its own database, removed afterwards.
    final class Scratch {
        let folder: URL
        var db: String { folder.appendingPathComponent("courses.sqlite").path }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-cli-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        /// Makes the scratch store, empty, as a first import or draw would: reading commands open
        /// only a store that is there (`--db` naming none is exit 66).
        func makeStore() async throws {
            _ = try await CourseStore(path: db, user: "runner")
        }

        func run(_ arguments: [String], user: String = "runner") throws -> RunnectProcess.Result {
            try RunnectProcess.run(arguments + ["--db", db, "--user", user])
        }

        func objects(_ arguments: [String], user: String = "runner") throws -> [[String: Any]] {
            let result = try run(arguments + ["--json"], user: user)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return try result.stdoutLines.map {
                try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
        }

        /// `count` small distinct GPX runs in a folder of their own.
        func gpxFiles(_ name: String, count: Int, latitude: Double) throws -> URL {
            let dir = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for i in 0..<count {
                var lines: [String] = []
                for j in 0..<50 {
                    let lat: Double = latitude + Double(i) * 0.001 + Double(j) * 0.00003
                    let lon: Double = 127.0 + Double(j) * 0.00003
                    let stamp = String(format: "2025-05-01T06:%02d:%02dZ", j / 60, j % 60)
                    lines.append(
                        String(format: "<trkpt lat=\"%.6f\" lon=\"%.6f\">", lat, lon) + "<time>\(stamp)</time></trkpt>")
                }
                let points: String = lines.joined(separator: "\n")
                let gpx: String =
                    "<gpx version=\"1.1\"><trk><name>\(name) \(i)</name><trkseg>\n" + points
                    + "\n</trkseg></trk></gpx>\n"
                let file = dir.appendingPathComponent(String(format: "run_%04d.gpx", i))
                try gpx.write(to: file, atomically: true, encoding: String.Encoding.utf8)
            }
            return dir
        }
    }

    @Test("import a folder, re-import skips, a bad file is reported with exit 65 and nothing of it is kept")
    func importFolder() throws {
        let scratch = try Scratch()
        let first = try scratch.objects(["import", "SampleTracks"])
        #expect(first.count == 7)
        // Timed runs are kept as records (each on a course made from it); the rest as courses.
        let records = first.filter { $0["course_id"] != nil }
        #expect(!records.isEmpty && records.count < 7)
        for object in first {
            let keys =
                object["course_id"] != nil
                ? ["id", "title", "owner", "course_id", "course_time_s", "match_coverage", "distance_m"]
                : ["id", "title", "owner", "is_uploaded", "is_scrapped", "scrap_count", "distance_m"]
            for key in keys { #expect(object.keys.contains(key), "no \(key)") }
        }
        let again = try scratch.run(["import", "SampleTracks"])
        #expect(again.status == 0)
        #expect(again.stdout.contains("0 imported, 7 already there, 0 failed"), "\(again.stdout)")

        let bad = scratch.folder.appendingPathComponent("bad.gpx")
        try "<gpx><trk><trkseg><trkpt lat=\"37.5\" lon=\"127\">".write(to: bad, atomically: true, encoding: .utf8)
        let failed = try scratch.run(["import", bad.path, "SampleTracks/banpo_hangang_night_run.gpx"])
        #expect(failed.status == 65)
        #expect(failed.stderr.contains("bad.gpx") && failed.stderr.contains("not closed"), "\(failed.stderr)")
        #expect(try scratch.objects(["list", "--limit", "100"]).count == 7)

        let summary = try #require(try scratch.objects(["db"]).first)
        #expect(summary["courses"] as? Int == 7 && summary["shared_courses"] as? Int == 0)
        #expect(summary["schema_version"] as? Int == 6 && summary["supported_schema_version"] as? Int == 6)
    }

    @Test("draw, upload, scrap by another user, list --shared --sort scrap, search in Korean and by 초성")
    func shareAndDiscover() throws {
        let scratch = try Scratch()
        let lake = try scratch.objects([
            "draw", "--points-file", "SampleTracks/seokchon_lake_tapped.json",
            "--title", "석촌호수 한 바퀴", "--departure", "서울 송파구 잠실동 잠실로 180",
            "--departure-name", "석촌호수",
        ])[0]
        let river = try scratch.objects([
            "draw", "--points", "37.5100,127.0600 37.5112,127.0621",
            "--title", "Hangang Night Run",
        ])[0]
        let lakeID = "\(lake["id"]!)"
        let riverID = "\(river["id"]!)"
        _ = try scratch.objects(["upload", lakeID, "--title", "석촌호수 한 바퀴", "--description", "호수 둘레 2.7km"])
        _ = try scratch.objects(["upload", riverID, "--title", "Hangang Night Run", "--description", "night run"])
        #expect(try scratch.run(["upload", lakeID, "--title", "again", "--description", "x"]).status == 1)

        let scrapped = try scratch.objects(["scrap", lakeID], user: "friend")[0]
        #expect(scrapped["scrap_count"] as? Int == 1)
        #expect(scrapped["is_scrapped"] as? Bool == true)
        #expect(try scratch.run(["scrap", lakeID], user: "friend").status == 1, "only once")
        #expect(try scratch.run(["rename", lakeID, "--title", "mine now"], user: "friend").status == 1, "owner only")

        let byScrap = try scratch.objects(["list", "--shared", "--sort", "scrap"], user: "friend")
        #expect(byScrap.map { "\($0["id"]!)" } == [lakeID, riverID])
        #expect(try scratch.objects(["list", "--scrapped"], user: "friend").map { "\($0["id"]!)" } == [lakeID])

        for (query, expected) in [
            ("석촌", [lakeID]), ("잠실", [lakeID]), ("ㅅㅊ", [lakeID]), ("han", [riverID]),
            ("호수 송파구", [lakeID]), ("'; DROP TABLE course; --", []), ("%", []),
        ] {
            let found = try scratch.objects(["search", query]).map { "\($0["id"]!)" }
            #expect(found == expected, "search \(query)")
        }
        #expect(try scratch.objects(["list", "--shared"]).count == 2, "the table survived the injection attempt")
    }

    @Test(
        "show, rename, list filters and pages, unupload clears scraps, unscrap, delete; errors exit 1 and change nothing"
    )
    func manageCourses() throws {
        let scratch = try Scratch()
        let imported = try scratch.objects(["import", "SampleTracks"])
        // A timed run's line is its record; its course is course_id.
        let ids = imported.map { "\(($0["course_id"] ?? $0["id"])!)" }
        #expect(ids.count == 7 && Set(ids).count == 7)
        let first = ids[0]
        let second = ids[1]

        let shown = try scratch.run(["show", first])
        #expect(
            shown.status == 0 && shown.stdout.contains("Distance") && shown.stdout.contains("sha256"), "\(shown.stdout)"
        )
        #expect(try scratch.objects(["show", first])[0]["id"] as? Int == Int(first))
        #expect(try scratch.run(["show", "9999"]).status == 1)

        let renamed = try scratch.objects(["rename", first, "--title", "  잠실 새벽 런  "])[0]
        #expect(renamed["title"] as? String == "잠실 새벽 런")
        #expect(try scratch.run(["rename", first, "--title", String(repeating: "가", count: 41)]).status == 1)
        #expect(try scratch.objects(["show", first])[0]["title"] as? String == "잠실 새벽 런")

        _ = try scratch.objects(["upload", first, "--title", "잠실 새벽 런", "--description", "새벽 5시"])
        #expect(
            try scratch.run(["upload", second, "--title", "x", "--description", " "]).status == 1, "no description")
        #expect(try scratch.objects(["list", "--uploaded"]).map { "\($0["id"]!)" } == [first])
        #expect(try scratch.objects(["list", "--private", "--limit", "100"]).count == 6)
        let pages = try (1...3).map {
            try scratch.objects(["list", "--limit", "3", "--page", "\($0)"]).map { "\($0["id"]!)" }
        }
        #expect(pages.map(\.count) == [3, 3, 1])
        #expect(Set(pages.flatMap { $0 }) == Set(ids), "pages cover every course once")
        #expect(try scratch.run(["list", "--page", "0"]).status != 0)

        _ = try scratch.objects(["scrap", first], user: "friend")
        let unscrapped = try scratch.objects(["unscrap", first], user: "friend")[0]
        #expect(unscrapped["scrap_count"] as? Int == 0 && unscrapped["is_scrapped"] as? Bool == false)
        #expect(try scratch.run(["unscrap", first], user: "friend").status == 1, "not scrapped")
        _ = try scratch.objects(["scrap", first], user: "friend")
        #expect(try scratch.run(["unupload", first], user: "friend").status == 1, "owner only")
        let privateCourse = try scratch.objects(["unupload", first])[0]
        #expect(privateCourse["is_uploaded"] as? Bool == false && privateCourse["scrap_count"] as? Int == 0)
        #expect(try scratch.objects(["list", "--scrapped"], user: "friend").isEmpty)

        #expect(try scratch.run(["delete", first], user: "friend").status == 1, "owner only")
        let withRecords = imported.prefix(2).contains { $0["course_id"] != nil }
        if withRecords {
            let refused = try scratch.run(["delete", first, second])
            #expect(refused.status == 1 && refused.stderr.contains("--with-records"), "\(refused.stderr)")
        }
        let deleted = try scratch.run(["delete", first, second] + (withRecords ? ["--with-records"] : []))
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try scratch.objects(["list", "--limit", "100"]).count == 5)
        #expect(try scratch.objects(["search", "잠실", "--all"]).isEmpty, "gone from the search index too")
    }

    @Test("two import processes writing the same database at once both finish; nothing lost or duplicated")
    func concurrentWriters() throws {
        let scratch = try Scratch()
        let a = try scratch.gpxFiles("a", count: 40, latitude: 37.40)
        let b = try scratch.gpxFiles("b", count: 40, latitude: 37.60)
        let shared = try scratch.gpxFiles("both", count: 10, latitude: 37.80)
        final class Box: @unchecked Sendable { var results: [RunnectProcess.Result?] = [nil, nil] }
        let box = Box()
        let group = DispatchGroup()
        for (i, dirs) in [[a, shared], [b, shared]].enumerated() {
            group.enter()
            let db = scratch.db
            DispatchQueue.global().async {
                box.results[i] = try? RunnectProcess.run(
                    ["import"] + dirs.map(\.path) + ["--db", db, "--user", "runner"])
                group.leave()
            }
        }
        group.wait()
        for result in box.results {
            let result = try #require(result)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let all = try scratch.objects(["list", "--limit", "1000"])
        #expect(all.count == 90)
        #expect(Set(all.map { $0["content_hash"] as? String }).count == 90)
    }

    /// Courses committed so far, read through a read-only connection (never creating the file).
    static func committedCourses(_ db: String) -> Int? {
        var configuration = Configuration()
        configuration.readonly = true
        return try? DatabaseQueue(path: db, configuration: configuration)
            .read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM course") }
    }

    @Test(
        "kill -9 in the middle of a bulk import: some courses but not all, integrity_check ok, whole courses only; a re-run imports exactly the missing ones"
    )
    func killDuringImport() throws {
        let scratch = try Scratch()
        // 20 batches of 64 files (BulkImporter.batchFiles): the kill comes right after the first
        // commit, while the 19 others are still to do, so it interrupts the import however slow
        // or loaded the machine is; debug builds import all of them in a few seconds.
        let total = 1_280
        let dir = try scratch.gpxFiles("bulk", count: total, latitude: 37.5)
        let process = Process()
        process.executableURL = RunnectProcess.executable
        process.arguments = ["import", dir.path, "--db", scratch.db, "--user", "runner"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline && (Self.committedCourses(scratch.db) ?? 0) == 0 {
            usleep(2_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the import ended before the kill")

        let queue = try DatabaseQueue(path: scratch.db)
        let integrity = try queue.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
        #expect(integrity == ["ok"])
        let courses = try scratch.objects(["list", "--limit", "\(total)"])
        print("kill -9 during import: \(courses.count) of \(total) courses in after the kill")
        #expect(courses.count > 0 && courses.count < total, "\(courses.count) of \(total) courses after the kill")
        for course in courses {
            let stats = try #require(course["stats"] as? [String: Any])
            #expect(stats["points"] as? Int == 50, "a whole course, every point")
        }
        // The interrupted import is finished by running it again: exactly the missing files.
        let rerun = try scratch.run(["import", dir.path])
        #expect(rerun.status == 0)
        #expect(
            rerun.stdout.contains(
                "\(total - courses.count) imported (\(total - courses.count) as records of runs), "
                    + "\(courses.count) already there, 0 failed"),
            "\(rerun.stdout.suffix(300))")
        #expect(try scratch.objects(["list", "--limit", "\(2 * total)"]).count == total)
    }
}
