import Foundation
import RunnectKit
import RunnectTestSupport
import Testing

/// `runnect export gpx|tcx|fit` end to end: store courses, records and files in, files a watch
/// takes out, read back by Runnect's readers and by the independent ones where installed.
@Suite("runnect export gpx|tcx|fit (end to end)")
struct CourseFileCommandTests {
    typealias Scratch = StoreCommandTests.Scratch
    static let run = "SampleTracks/banpo_hangang_night_run.gpx"

    static func read(_ path: String) throws -> Activity {
        try ActivityReader.read(path: path)
    }

    @Test("a stored course is a course, a record a run, in each format; names and titles carried")
    func storeCourseAndRecord() throws {
        let scratch = try Scratch()
        let record = try scratch.objects(["import", Self.run])[0]
        let recordID = try #require(record["id"] as? Int)
        let taps = "37.5100,127.0600 37.5112,127.0621 37.5125,127.0644 37.5131,127.0652"
        let drawn = try scratch.objects(["draw", "--points", taps, "--title", "석촌 <호수> & \"길\""])[0]
        let id = try #require(drawn["id"] as? Int)

        let gpx = try scratch.run(["export", "gpx", "\(id)"])
        #expect(gpx.status == 0, "\(gpx.stderr)")
        let course = try GPXReader().read(from: MemoryByteStream(gpx.stdout))
        #expect(course.metadata.name == "석촌 <호수> & \"길\"")
        #expect(course.courseSegments.joined().count == 4 && !gpx.stdout.contains("<time>"))

        let fit = scratch.path("course.fit")
        let written = try scratch.run(["export", "fit", "\(id)", "-o", fit])
        #expect(written.status == 0 && written.stderr.isEmpty, "\(written.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fit)).count
        #expect(written.stdout == "\(id) -> \(fit) (\(bytes) bytes)\n")
        let fitCourse = try FITReader().decode(from: FileByteStream(path: fit))
        #expect(fitCourse.summary.recordCount == 4)
        // A store course's times start when it was stored.
        let stamp = try #require(drawn["created_at"] as? String)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let created = try #require(formatter.date(from: stamp) ?? ISO8601DateFormatter().date(from: stamp))
        let start = try #require(fitCourse.activity.courseSegments[0].first?.time)
        #expect(abs(start.timeIntervalSince(created)) <= 0.5)

        let runFIT = scratch.path("run.fit")
        #expect(try scratch.run(["export", "fit", "record:\(recordID)", "-o", runFIT]).status == 0)
        let source = try Self.read(Self.run)
        let back = try FITReader().decode(from: FileByteStream(path: runFIT))
        #expect(back.summary.recordCount == source.courseSegments.joined().count)
        #expect(back.summary.sessions.count == 1 && back.activity.laps.count == source.courseSegments.count)
        #expect(back.activity.courseSegments[0].first?.time == source.courseSegments[0].first?.time)
        #expect(back.activity.courseSegments[0].first?.heartRateBPM == source.courseSegments[0].first?.heartRateBPM)

        let tcx = try scratch.run(["export", "tcx", "record:\(recordID)", "--kind", "course"])
        #expect(tcx.status == 0 && tcx.stdout.contains("<Courses>") && !tcx.stdout.contains("<Activities>"))
        let runGPX = try scratch.run(["export", "gpx", "record:\(recordID)"])
        #expect(runGPX.stdout.contains("<time>2025-05-02T12:04:31Z</time>") && runGPX.stdout.contains("<gpxtpx:hr>"))

    }

    @Test(
        "fitparse reads a stored course's FIT as a course with its title, a record's as an activity",
        .requires(FitParse.present, FitParse.missing))
    func storeCourseAndRecordFitParse() throws {
        let scratch = try Scratch()
        let recordID = try #require(try scratch.objects(["import", Self.run])[0]["id"] as? Int)
        let taps = "37.5100,127.0600 37.5112,127.0621 37.5125,127.0644 37.5131,127.0652"
        let drawn = try scratch.objects(["draw", "--points", taps, "--title", "석촌 <호수> & \"길\""])[0]
        let id = try #require(drawn["id"] as? Int)
        let fit = scratch.path("course.fit")
        let runFIT = scratch.path("run.fit")
        #expect(try scratch.run(["export", "fit", "\(id)", "-o", fit]).status == 0)
        #expect(try scratch.run(["export", "fit", "record:\(recordID)", "-o", runFIT]).status == 0)
        let summaries = try FitParse.summaries([fit, runFIT])
        #expect(summaries[fit]?["file_type"] as? String == "course")
        #expect(summaries[fit]?["course_name"] as? String == "석촌 <호수> & \"길\"")
        #expect(summaries[runFIT]?["file_type"] as? String == "activity")
    }

    @Test("several inputs need -o DIR: one file each, a line each; a one-point course: exit 65, named, no file")
    func folderAndOnePoint() throws {
        let scratch = try Scratch()
        let onePoint = scratch.path("one-point.gpx")
        try """
        <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>lonely</name>\
        <trkseg><trkpt lat="37.5" lon="127.0"/></trkseg></trk></gpx>
        """.write(toFile: onePoint, atomically: true, encoding: .utf8)
        let inputs = [Self.run, onePoint, "SampleTracks/olympic_park_route.gpx"]
        #expect(try scratch.run(["export", "fit"] + inputs).status == 64, "several inputs, no -o")

        for format in ["gpx", "tcx", "fit"] {
            let folder = scratch.path("out-\(format)")
            let result = try scratch.run(["export", format] + inputs + ["-o", folder, "--json"])
            #expect(result.status == 65, "\(format): \(result.stderr)")
            #expect(
                result.stderr
                    == "runnect: error: \(onePoint): a course needs at least 2 points with a position to be written; "
                    + "this one has 1\n")
            #expect(result.stdoutLines.count == 2)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            #expect(names == ["banpo_hangang_night_run.\(format)", "olympic_park_route.\(format)"], "\(names)")
            for name in names {
                #expect(try Self.read(folder + "/" + name).courseSegments.joined().count > 10)
            }
            if format == "fit" {
                // A fully timed file is a run (an activity file, with a session); a route a course.
                let run = try FITReader().decode(from: FileByteStream(path: folder + "/" + names[0]))
                let route = try FITReader().decode(from: FileByteStream(path: folder + "/" + names[1]))
                #expect(run.summary.sessions.count == 1 && route.summary.sessions.isEmpty)
            }
        }
        let single = scratch.path("lonely.fit")
        let refused = try scratch.run(["export", "fit", onePoint, "-o", single])
        #expect(refused.status == 65 && refused.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: single), "no partial output file")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.folder.path).allSatisfy {
                !$0.hasSuffix(".tmp")
            })
    }

    @Test("--as route writes <rte>s; --pace sets a course's times; bad options are usage errors")
    func options() throws {
        let scratch = try Scratch()
        let route = try scratch.run(["export", "gpx", Self.run, "--as", "route"])
        #expect(route.status == 0 && route.stdout.contains("<rte>") && !route.stdout.contains("<trk>"))
        let source = try Self.read(Self.run)
        let meters = Geodesic.length(of: source.courseSegments.joined().map(\.coordinate))
        for (pace, seconds) in [("5:00", 300.0), ("330", 330)] {
            let tcx = try scratch.run(["export", "tcx", Self.run, "--kind", "course", "--pace", pace])
            #expect(tcx.status == 0)
            let points = try TCXReader().read(from: MemoryByteStream(tcx.stdout)).courseSegments.joined()
            let total = points.last!.time!.timeIntervalSince(points.first!.time!)
            #expect(abs(total - meters / 1000 * seconds) < 0.01, "\(pace): \(total) s for \(meters) m")
        }
        for bad in [["--pace", "0:30"], ["--pace", "fast"], ["--as", "route", "--kind", "run"], ["--kind", "walk"]] {
            let result = try scratch.run(["export", "gpx", Self.run] + bad)
            #expect(result.status == 64, "\(bad): \(result.stderr)")
        }
    }

    @Test(
        "a name with characters XML forbids gives a file the schema accepts, the name without them",
        .requires(XMLSchemaCheck.present, XMLSchemaCheck.missing),
        .requires(SharedCorpus.schemasAreAvailable, SharedCorpus.schemasMissing))
    func forbiddenCharacters() throws {
        let scratch = try Scratch()
        let input = scratch.path("odd.gpx")
        try """
        <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>a\u{FFFE}b\u{FFFF} &lt;c&gt;\u{85}</name>\
        <trkseg><trkpt lat="37.5" lon="127.0"/><trkpt lat="37.501" lon="127.001"/></trkseg></trk></gpx>
        """.write(toFile: input, atomically: true, encoding: .utf8)
        let folder = try TemporaryFolder("runnect-names")
        for (format, schema) in [("gpx", XMLSchemaCheck.Schema.gpx), ("tcx", .tcx)] {
            let output = folder.path("odd.\(format)")
            #expect(try scratch.run(["export", format, input, "-o", output]).status == 0)
            #expect(try XMLSchemaCheck.invalidFiles([output], schema: schema, folder: folder).isEmpty)
            let text = try String(contentsOfFile: output, encoding: .utf8)
            #expect(text.contains("<Name>ab &lt;c&gt;</Name>") || text.contains("<name>ab &lt;c&gt;</name>"), "\(text)")
        }
    }

    @Test(
        "FIT is not written to a terminal (a pseudo-terminal from script(1)): exit 64",
        .requires(ExternalTool.path("script") != nil, "script(1) is not on PATH (Debian: bsdutils)"))
    func fitToTerminal() throws {
        let script = try #require(ExternalTool.path("script"))
        let folder = try TemporaryFolder("runnect-tty")
        let command = [RunnectProcess.executable.path, "export", "fit", Self.run]
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let result = try ToolRun.run(
            [script, "-qec", command, folder.path("typescript")], in: PackageFolder.root)
        #expect(result.status == 64, "\(result.stdout)")
        #expect(result.stdout.contains("FIT is binary"))
    }

    @Test(
        "a 200,000-point course: exporting it peaks no higher than reading it (4 MiB), GeoJSON as the control",
        .requires(PeakMemory.present, "python3 is missing: the child's peak memory is read through it"))
    func memory() throws {
        let folder = try TemporaryFolder("runnect-memory")
        let input = folder.path("big.gpx")
        var text = "<gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
        var lat = 37.51
        var lon = 127.06
        for i in 0..<200_000 {
            lat += 0.2 * cos(Double(i) / 900) / 111_320
            lon += 0.2 * sin(Double(i) / 900) / 88_000
            text += "<trkpt lat=\"\(lat)\" lon=\"\(lon)\"><ele>\(30 + i % 9)</ele></trkpt>\n"
        }
        try (text + "</trkseg></trk></gpx>\n").write(toFile: input, atomically: true, encoding: .utf8)
        text = ""

        let reading = try PeakMemory.run(["stats", input], folder: folder.url)
        #expect(reading.status == 0)
        for format in ["gpx", "tcx", "fit", "geojson"] {
            let output = folder.path("out.\(format)")
            let export = try PeakMemory.run(["export", format, input, "-o", output], folder: folder.url)
            #expect(export.status == 0)
            let size = try Data(contentsOf: URL(fileURLWithPath: output)).count
            let extra = Double(export.peakKiB - reading.peakKiB) / 1024
            let note = "\(format): peak \(export.peakKiB) KiB vs \(reading.peakKiB) reading, \(size) bytes out"
            print("export memory: \(note)")
            if format == "geojson" {
                // Made whole in memory: the measure sees a text held at once.
                #expect(extra > 4, "\(note)")
            } else {
                #expect(extra <= 4, "\(note)")
                #expect(size > (format == "fit" ? 3_500_000 : 15_000_000), "\(note)")
            }
            try FileManager.default.removeItem(atPath: output)
        }
    }
}
