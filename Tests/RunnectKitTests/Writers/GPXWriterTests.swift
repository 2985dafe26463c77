import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

@Suite("GPX writer")
struct GPXWriterTests {
    static func text(_ activity: Activity, _ writer: GPXWriter) throws -> String {
        String(decoding: try writer.data(for: activity), as: UTF8.self)
    }

    /// A name and a description with markup, controls and characters XML forbids, written as a
    /// course and as a run.
    static func hostileTexts() throws -> [String] {
        let name = "<Run> & \"night\"\u{0}\u{1B}[31m\n한강\u{FFFE} 🏃\u{202E}"
        let activity = CourseFileTestData.run()
        return try ExportKind.allCases.map { kind in
            try text(activity, GPXWriter(options: ExportOptions(kind: kind, name: name, description: "a\u{1}b <c>")))
        }
    }

    @Test("a name with markup, controls and characters XML forbids gives a sanitised name")
    func sanitisedName() throws {
        for text in try Self.hostileTexts() {
            #expect(text.contains("<name>&lt;Run&gt; &amp; &quot;night&quot; [31m 한강 🏃</name>"))
            #expect(text.contains("<desc>ab &lt;c&gt;</desc>"))
            let back = try GPXReader().read(from: MemoryByteStream(text))
            #expect(back.metadata.name == "<Run> & \"night\" [31m 한강 🏃")
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        }
    }

    @Test(
        "a name with markup, controls and characters XML forbids gives a file valid against the GPX schema",
        .requires(XMLSchemaCheck.present, XMLSchemaCheck.missing),
        .requires(SharedCorpus.schemasAreAvailable, SharedCorpus.schemasMissing))
    func sanitisedNameIsValid() throws {
        let folder = try TemporaryFolder("runnect-gpx")
        for (index, text) in try Self.hostileTexts().enumerated() {
            let file = folder.path("named-\(index).gpx")
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let invalid = try XMLSchemaCheck.invalidFiles([file], schema: .gpx, folder: folder)
            #expect(invalid.isEmpty, "\(invalid)")
        }
    }

    @Test("a course of one point (or none) is refused before a byte is written")
    func onePoint() throws {
        for positions in [[(37.5, 127.0)], []] {
            var sink = ChunkLog()
            #expect(throws: WriteError.tooFewPoints(positioned: positions.count)) {
                try GPXWriter().write(CourseFileTestData.course(positions), to: &sink)
            }
            #expect(sink.bytes.isEmpty)
        }
        #expect(
            WriteError.tooFewPoints(positioned: 1).description
                == "a course needs at least 2 points with a position to be written; this one has 1")
    }

    @Test("a run needs a time at every point; a course does not")
    func runNeedsTimes() throws {
        var activity = CourseFileTestData.run()
        activity.tracks[0].segments[0].points[3].time = nil
        activity.tracks[0].segments[0].points[9].time = nil
        #expect(throws: WriteError.missingTimes(count: 2)) {
            try GPXWriter(options: ExportOptions(kind: .run)).data(for: activity)
        }
        #expect(try GPXWriter().data(for: activity).count > 0)
    }

    @Test("a run keeps times, rounded heart rates, cadence and temperature in gpxtpx; a course keeps positions")
    func runFields() throws {
        var activity = CourseFileTestData.run(count: 4)
        activity.tracks[0].segments[0].points[1].heartRateBPM = 0  // not a heart rate: left out
        activity.tracks[0].segments[0].points[2].cadence = 255  // beyond the schema: left out
        activity.tracks[0].segments[0].points[3].heartRateBPM = 143.6  // whole beats in GPX: 144
        let run = try Self.text(activity, GPXWriter(options: ExportOptions(kind: .run)))
        #expect(
            run.contains(
                "<trkpt lat=\"37.51\" lon=\"127.06\"><ele>20.0</ele><time>2025-05-02T10:00:00Z</time><extensions>"
                    + "<gpxtpx:TrackPointExtension><gpxtpx:atemp>18.5</gpxtpx:atemp><gpxtpx:hr>140</gpxtpx:hr>"
                    + "<gpxtpx:cad>85</gpxtpx:cad></gpxtpx:TrackPointExtension></extensions></trkpt>"))
        #expect(run.contains("<gpxtpx:atemp>18.5</gpxtpx:atemp><gpxtpx:cad>85</gpxtpx:cad>"))
        #expect(run.contains("<gpxtpx:hr>142</gpxtpx:hr></gpxtpx:TrackPointExtension>"))
        #expect(run.contains("<gpxtpx:hr>144</gpxtpx:hr><gpxtpx:cad>85</gpxtpx:cad>"))
        #expect(run.contains("<metadata><name>Test run</name><time>2025-05-02T10:00:00Z</time></metadata>"))
        let course = try Self.text(activity, GPXWriter())
        #expect(!course.contains("<time>") && !course.contains("gpxtpx"))
        #expect(course.contains("<trkpt lat=\"37.51\" lon=\"127.06\"><ele>20.0</ele></trkpt>"))
    }

    @Test("coordinates read back as the same Doubles; 180° is written −180°, the schema's range")
    func coordinates() throws {
        var random = SplitMix64(seed: 2)
        let positions = (0..<500).map { _ in (random.double(in: -90...90), random.double(in: -180...180)) }
        let activity = CourseFileTestData.course(positions + [(0.000001, 180), (-89.99999999999999, 1e-7)])
        let text = try Self.text(activity, GPXWriter())
        let back = try GPXReader().read(from: MemoryByteStream(text)).courseSegments[0]
        #expect(back.map(\.latitude) == activity.courseSegments[0].map(\.latitude))
        #expect(back.map(\.longitude) == activity.courseSegments[0].map { $0.longitude == 180 ? -180 : $0.longitude })
        #expect(text.contains("lat=\"0.000001\" lon=\"-180.0\""))
        #expect(text.contains("lon=\"0.0000001\""))
        #expect(!text.contains("e-"))
    }

    @Test("--as route: one <rte> per segment, positions and elevations only, even for a run")
    func routes() throws {
        let activity = CourseFileTestData.run(count: 10, segments: 2)
        let text = try Self.text(activity, GPXWriter(options: ExportOptions(kind: .run), writesRoutes: true))
        #expect(text.components(separatedBy: "<rte>").count - 1 == 2)
        #expect(!text.contains("<trk>") && !text.contains("<time>"))
        let back = try GPXReader().read(from: MemoryByteStream(text))
        #expect(back.routes.map(\.points.count) == [5, 5])
        #expect(back.routes.map(\.name) == ["Test run", "Test run"])
    }
}
