import Foundation
import RunnectTestSupport
import Testing

/// What `runnect import` makes of inputs a new user meets (issue 34, items 9, 11 and 13): tracks
/// that are no course, times going back, a folder reached through a symbolic link.
@Suite("runnect import: unusable tracks, times going back, linked folders (end to end)")
struct ImportInputCommandTests {
    typealias Scratch = StoreCommandTests.Scratch

    /// A GPX track of the given points (`lat`, `lon`), each with a time 3 s after the one before.
    static func gpx(_ points: [(Double, Double)], name: String = "run") -> String {
        var text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\"><trk><name>\(name)</name><trkseg>\n"
        for (index, point) in points.enumerated() {
            let time = String(
                format: "2024-04-07T%02d:%02d:%02dZ", 6 + index * 3 / 3600, index * 3 / 60 % 60, index * 3 % 60)
            text += "<trkpt lat=\"\(point.0)\" lon=\"\(point.1)\"><time>\(time)</time></trkpt>\n"
        }
        return text + "</trkseg></trk></gpx>\n"
    }

    @Test(
        "a 1-point track and 5,000 fixes of one place are refused with exit 65 naming each file; the rest of the folder imports, nothing of them stored"
    )
    func tooFewPositions() throws {
        let scratch = try Scratch()
        let folder = scratch.folder.appendingPathComponent("runs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let one = folder.appendingPathComponent("one.gpx").path
        let still = folder.appendingPathComponent("still.gpx").path
        try Self.gpx([(37.52, 127.12)]).write(toFile: one, atomically: true, encoding: .utf8)
        try Self.gpx(Array(repeating: (37.52, 127.12), count: 5_000)).write(
            toFile: still, atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            atPath: PackageFolder.root.appendingPathComponent("SampleTracks/olympic_park_route.gpx").path,
            toPath: folder.appendingPathComponent("route.gpx").path)

        let result = try scratch.run(["import", folder.path])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stdout.contains("1 imported, 0 already there, 2 failed"), "\(result.stdout)")
        #expect(
            result.stderrLines.contains(
                "runnect: error: \(one): only 1 distinct position in 1 point; a course needs at least 2 "
                    + "distinct positions to have a path"), "\(result.stderr)")
        #expect(
            result.stderrLines.contains(
                "runnect: error: \(still): only 1 distinct position in 5000 points; a course needs at least 2 "
                    + "distinct positions to have a path"), "\(result.stderr)")
        #expect(try scratch.objects(["list", "--limit", "100"]).count == 1)
        #expect(try scratch.objects(["records"]).isEmpty, "no 0 m record")

        // One file alone: the same refusal and exit code.
        let alone = try scratch.run(["import", still])
        #expect(alone.status == 65 && alone.stderrLines.count == 1 && alone.stderr.contains(still), "\(alone.stderr)")
        // Two taps on one spot are refused by draw as well, as a course that cannot be read (65).
        let drawn = try scratch.run(["draw", "--points", "37.52,127.12 37.52,127.12", "--title", "here"])
        #expect(drawn.status == 65 && drawn.stderr.contains("at least 2 distinct positions"), "\(drawn.stderr)")
        #expect(try scratch.objects(["list", "--limit", "100"]).count == 1)
    }

    @Test("import warns about times going back as stats does, naming the file, and stores the same course")
    func timesGoingBack() throws {
        let scratch = try Scratch()
        var points: [(Double, Double)] = []
        for index in 0..<20 { points.append((37.52, 127.12 + Double(index) * 0.000113)) }
        var text = Self.gpx(points)
        text = text.replacingOccurrences(of: "2024-04-07T06:00:30Z", with: "2023-04-08T06:00:30Z")
        let file = scratch.folder.appendingPathComponent("back.gpx").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)

        let stats = try RunnectProcess.run(["stats", file])
        let warnings = stats.stderrLines.filter { $0.hasPrefix("runnect: warning: \(file): ") }
        #expect(warnings.count == 1, "\(stats.stderr)")
        let imported = try scratch.run(["import", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderrLines == warnings, "\(imported.stderr)")
        // JSON output too warns on standard error, and standard output stays JSON.
        let other = try Scratch()
        let json = try other.run(["import", file, "--json"])
        #expect(json.status == 0 && json.stderrLines == warnings, "\(json.stderr)")
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["elapsed_time_s"] as? Double == 57, "the run's own time, as stats gives: \(object)")
        // Already imported: a note, no second warning.
        let again = try scratch.run(["import", file])
        #expect(again.status == 0 && !again.stderr.contains("warning"), "\(again.stderr)")
    }

    @Test("a folder named through a symbolic link imports its files: runs, runs/ and runs/.")
    func linkedFolder() throws {
        let scratch = try Scratch()
        let real = try scratch.gpxFiles("Runs", count: 3, latitude: 37.5)
        let link = scratch.folder.appendingPathComponent("runs").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real.path)
        for (index, name) in [link, link + "/", link + "/."].enumerated() {
            let result = try scratch.run(["import", name])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            let expected =
                index == 0
                ? "3 imported (3 as records of runs), 0 already there, 0 failed"
                : "0 imported, 3 already there, 0 failed"
            #expect(result.stdout.contains(expected), "\(name): \(result.stdout)")
        }
        // Relative to the working folder, as a new user types it.
        let relative = try RunnectProcess.run(
            ["import", "runs", "--db", scratch.folder.appendingPathComponent("other.sqlite").path, "--user", "r"],
            workingDirectory: scratch.folder)
        #expect(relative.status == 0, "\(relative.stderr)")
        #expect(relative.stdout.contains("3 imported (3 as records of runs)"), "\(relative.stdout)")
        // The files are named as the user named the folder.
        #expect(relative.stderr.isEmpty, "\(relative.stderr)")
    }

    @Test(
        "import and export take a file for a run by one rule: a partly timed track and one whose times stand still are courses for both"
    )
    func runOrCourse() throws {
        let scratch = try Scratch()
        var points: [(Double, Double)] = []
        for index in 0..<20 { points.append((37.52, 127.12 + Double(index) * 0.000113)) }
        let run = Self.gpx(points)
        // The last point untimed (import kept a record of it, export wrote a course) and every
        // point at one time (import kept a course, export wrote a run of no time).
        let partly = run.replacingOccurrences(of: "<time>2024-04-07T06:00:57Z</time>", with: "")
        let still = run.replacingOccurrences(
            of: "<time>2024-04-07T06:00:[0-9][0-9]Z</time>", with: "<time>2024-04-07T06:00:00Z</time>",
            options: .regularExpression)
        #expect(partly != run && still != run)
        for (name, text, isRun) in [("run", run, true), ("partly", partly, false), ("still", still, false)] {
            let file = scratch.folder.appendingPathComponent("\(name).gpx").path
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let imported = try scratch.run(["import", file])
            #expect(imported.status == 0, "\(name): \(imported.stderr)")
            #expect(imported.stdout.hasPrefix(isRun ? "recorded record:" : "imported #"), "\(name): \(imported.stdout)")
            let exported = try scratch.run(["export", "tcx", file])
            #expect(exported.status == 0, "\(name): \(exported.stderr)")
            #expect(exported.stdout.contains(isRun ? "<Activities>" : "<Courses>"), "\(name)")
        }
        #expect(try scratch.objects(["records"]).count == 1)
    }
}
