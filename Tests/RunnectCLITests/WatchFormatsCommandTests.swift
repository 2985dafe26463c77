import Foundation
import RunnectTestSupport
import Testing

/// TCX, gzip and Strava exports through the built binary.
@Suite("runnect: TCX, gzip and Strava exports (end to end)")
struct WatchFormatsCommandTests {
    typealias Scratch = StoreCommandTests.Scratch

    /// A TCX activity of `laps` laps of 20 trackpoints each, the device saying `lapMeters` a lap.
    static func activity(start: String, latitude: Double, laps: Int, lapMeters: Double) -> String {
        var text = "<Activity Sport=\"Running\"><Id>\(start)</Id>"
        for lap in 0..<laps {
            text +=
                "<Lap StartTime=\"\(start)\"><TotalTimeSeconds>300</TotalTimeSeconds>"
                + "<DistanceMeters>\(lapMeters)</DistanceMeters><Calories>40</Calories><Track>"
            for i in 0..<20 {
                let n = lap * 20 + i
                text +=
                    "<Trackpoint><Time>\(start.prefix(14))\(String(format: "%02d:%02d", n * 15 / 60, n * 15 % 60))Z</Time>"
                    + "<Position><LatitudeDegrees>\(latitude + Double(n) * 4e-4)</LatitudeDegrees>"
                    + "<LongitudeDegrees>127.05</LongitudeDegrees></Position></Trackpoint>"
            }
            text += "</Track></Lap>"
        }
        return text + "</Activity>"
    }

    static func tcx(_ activities: String) -> String {
        "<?xml version=\"1.0\"?>\n<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\">"
            + "<Activities>\(activities)</Activities></TrainingCenterDatabase>\n"
    }

    @Test("stats on a TCX file of two activities: one report each, the device distance beside ours")
    func twoActivities() throws {
        let scratch = try Scratch()
        let file = try scratch.file(
            "two.tcx",
            Self.tcx(
                Self.activity(start: "2026-05-01T06:00:00Z", latitude: 37.50, laps: 2, lapMeters: 900)
                    + Self.activity(start: "2026-05-02T06:00:00Z", latitude: 37.60, laps: 1, lapMeters: 850)))
        let text = try RunnectProcess.run(["stats", file.path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout.contains("two.tcx [1/2]  (TCX, track)") && text.stdout.contains("two.tcx [2/2]  (TCX, track)"))
        #expect(text.stdout.contains("  Device       1.80 km · 0:10:00 timer · 80 kcal · 2 laps"), "\(text.stdout)")
        #expect(text.stdout.contains("  Device       0.85 km · 0:05:00 timer · 40 kcal · 1 lap"), "\(text.stdout)")

        let json = try RunnectProcess.run(["stats", "--json", file.path])
        let objects = try json.stdoutLines.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["device_distance_m"] as? Double } == [1800, 850])
        #expect(objects.map { $0["laps"] as? Int } == [2, 1])
        #expect(objects.map { $0["segments"] as? Int } == [2, 1])
        #expect(objects.allSatisfy { $0["format"] as? String == "tcx" && $0["device_ascent_m"] is NSNull })
    }

    @Test(
        "stats on the Forerunner 945 TCX: 14.16 km measured, 14.00 km by the watch (snapshot of our text)",
        .sharedCorpus)
    func forerunnerTCX() throws {
        let file = SharedCorpus.url("tcx/garmin_fr945_run_sloatsburg.tcx").path
        let result = try RunnectProcess.run(["stats", file])
        #expect(result.status == 0)
        #expect(result.stdout.contains("  Distance     14.16 km"), "\(result.stdout)")
        #expect(
            result.stdout.contains("  Device       14.00 km · 1:23:09 timer · 982 kcal · 2 laps"), "\(result.stdout)")
    }

    @Test(
        "the same Forerunner 945 run as GPX, TCX, FIT and gzipped FIT: one distance within 1 mm, the reference's",
        .sharedCorpus)
    func sameRunInEveryFormat() throws {
        let scratch = try Scratch()
        let names = ["gpx", "tcx", "fit"].map { "\($0)/garmin_fr945_run_sloatsburg.\($0)" }
        let files = names.map { SharedCorpus.url($0).path }
        let gzipped = try scratch.gzip(files[2], to: "sloatsburg.fit.gz")
        let result = try RunnectProcess.run(["stats", "--json"] + files + [gzipped.path])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try result.stdoutLines.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["format"] as? String } == ["gpx-1.1", "tcx", "fit", "fit"])
        let distances = objects.compactMap { $0["distance_m"] as? Double }
        #expect(distances.count == 4)
        // reference.json: length_2d_geodesic_m of each file (GeographicLib over gpxpy,
        // ElementTree and fitparse readings).
        let references = try names.map { try SharedCorpus.figure($0, "length_2d_geodesic_m") }
        for (distance, reference) in zip(distances, references + [references[2]]) {
            #expect(abs(distance - reference) <= 0.001, "\(distances) vs \(references)")
        }
        #expect(Set(objects.map { $0["start_time"] as? String }).count == 1)
    }

    @Test("a .gpx.gz gives the stats of the plain file; a corrupt one is a one-line error and exit 65")
    func gzipped() throws {
        let scratch = try Scratch()
        let plain = "SampleTracks/banpo_hangang_night_run.gpx"
        let gzipped = try scratch.gzip(plain, to: "banpo.gpx.gz")
        let a = try RunnectProcess.run(["stats", "--json", "--splits", plain])
        let b = try RunnectProcess.run(["stats", "--json", "--splits", gzipped.path])
        #expect(b.status == 0, "\(b.stderr)")
        #expect(
            a.stdout.replacingOccurrences(of: plain, with: "F")
                == b.stdout.replacingOccurrences(of: gzipped.path, with: "F"))

        var bytes = try Data(contentsOf: gzipped)
        bytes.removeLast(bytes.count / 2)
        let cut = scratch.folder.appendingPathComponent("cut.gpx.gz")
        try bytes.write(to: cut)
        let failed = try RunnectProcess.run(["stats", cut.path])
        #expect(failed.status == 65)
        #expect(
            failed.stderrLines.count == 1 && failed.stderr.contains("cut.gpx.gz: truncated gzip file"),
            "\(failed.stderr)")
    }

    @Test("import of a plain folder finds .tcx and gzipped files, and only those of supported formats")
    func folderDiscovery() throws {
        let scratch = try Scratch()
        _ = try scratch.file(
            "runs/a/laps.tcx",
            Self.tcx(Self.activity(start: "2026-05-03T06:00:00Z", latitude: 37.55, laps: 2, lapMeters: 880)))
        _ = try scratch.gzip("SampleTracks/banpo_hangang_night_run.gpx", to: "runs/b/banpo.gpx.gz")
        _ = try scratch.gzip("SampleTracks/seokchon_lake_tapped.json", to: "runs/b/seokchon.json.gz")
        _ = try scratch.gzip("SampleTracks/README.md", to: "runs/notes.md.gz")
        _ = try scratch.file("runs/list.csv", "a,b\n")
        let result = try RunnectProcess.run([
            "import", scratch.folder.appendingPathComponent("runs").path,
            "--db", scratch.db, "--user", "minji",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // The TCX and the GPX are timed runs: records, each on a course of its own.
        #expect(
            result.stdout.contains("3 imported (2 as records of runs), 0 already there, 0 failed"), "\(result.stdout)")
        // The file name, .tcx left out.
        #expect(result.stdout.contains("recorded record:1  laps  "), "\(result.stdout)")
        #expect(result.stdout.contains("seokchon  "), "\(result.stdout)")  // .json.gz: both extensions left out
    }

    @Test(
        "import of a Strava export folder: names from activities.csv, counts per format, the broken file fails, a re-run imports nothing"
    )
    func stravaExport() throws {
        let scratch = try Scratch()
        let export = scratch.folder.appendingPathComponent("export_8412")
        _ = try scratch.gzip("SampleTracks/banpo_hangang_night_run.gpx", to: "export_8412/activities/11.gpx.gz")
        try FileManager.default.copyItem(
            atPath: PackageFolder.root.appendingPathComponent("SampleTracks/olympic_park_route.gpx").path,
            toPath: export.appendingPathComponent("activities/12.gpx").path)
        let tcx = try scratch.file(
            "run.tcx", Self.tcx(Self.activity(start: "2026-05-03T06:00:00Z", latitude: 37.55, laps: 3, lapMeters: 880)))
        _ = try scratch.gzip(tcx.path, to: "export_8412/activities/13.tcx.gz")
        _ = try scratch.file("export_8412/activities/14.tcx", "<TrainingCenterDatabase><Activities><Activity>")
        _ = try scratch.file(
            "export_8412/activities.csv",
            #"""
            Activity ID,Activity Date,Activity Name,Activity Type,Activity Description,Elapsed Time,Filename,Distance
            11,"May 2, 2025, 12:04:31 PM","반포 한강, 달빛 10K",Run,"첫 줄
            둘째 줄 ""따옴표""",3483,activities/11.gpx.gz,10.14
            12,"May 3, 2025, 6:00:00 AM",올림픽공원 산책,Walk,,,activities/12.gpx,
            13,"May 3, 2026, 6:00:00 AM","Tempo ""3 x 880""",Run,,900,activities/13.tcx.gz,2.64
            14,"May 4, 2026, 6:00:00 AM",잘린 파일,Run,,,activities/14.tcx,
            15,"May 5, 2026, 6:00:00 AM",수동 기록,Run,,1800,,5.0

            """#)
        let first = try RunnectProcess.run(["import", export.path, "--db", scratch.db, "--user", "minji"])
        #expect(first.status == 65)
        #expect(
            first.stdout.contains("3 imported (2 as records of runs), 0 already there, 1 failed"), "\(first.stdout)")
        for line in [
            "  gpx     1 imported, 0 already there, 0 failed", "  gpx.gz  1 imported, 0 already there, 0 failed",
            "  tcx     0 imported, 0 already there, 1 failed", "  tcx.gz  1 imported, 0 already there, 0 failed",
        ] {
            #expect(first.stdoutLines.contains(line), "no \"\(line)\" in \(first.stdout)")
        }
        #expect(
            first.stderr.contains("export_8412: Strava export, 5 activities, 4 with a file, 1 without"),
            "\(first.stderr)")
        #expect(
            first.stderr.contains("activities/14.tcx: line 1") && first.stderr.contains("not closed"), "\(first.stderr)"
        )

        let listed = try RunnectProcess.run(["list", "--json", "--limit", "10", "--db", scratch.db, "--user", "minji"])
        let titles = Set(
            try listed.stdoutLines.map {
                try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["title"] as? String
            })
        #expect(titles == ["반포 한강, 달빛 10K", "올림픽공원 산책", "Tempo \"3 x 880\""])
        let show = try RunnectProcess.run(["search", "달빛", "--all", "--json", "--db", scratch.db, "--user", "minji"])
        #expect(show.stdout.contains("첫 줄\\n둘째 줄 \\\"따옴표\\\""), "\(show.stdout)")

        let again = try RunnectProcess.run(["import", export.path, "--db", scratch.db, "--user", "minji"])
        #expect(again.status == 65)
        #expect(again.stdout.contains("0 imported, 3 already there, 1 failed"), "\(again.stdout)")
        let count = try RunnectProcess.run(["list", "--json", "--limit", "100", "--db", scratch.db, "--user", "minji"])
        #expect(count.stdoutLines.count == 3)
    }
}

extension StoreCommandTests.Scratch {
    func file(_ name: String, _ text: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// `source` gzipped by the system's `gzip` to `name`.
    func gzip(_ source: String, to name: String) throws -> URL {
        let target = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: target.path, contents: nil)
        let output = try FileHandle(forWritingTo: target)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-c", source]
        process.currentDirectoryURL = PackageFolder.root
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        return target
    }
}
