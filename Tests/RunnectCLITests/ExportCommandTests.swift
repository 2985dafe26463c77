import Foundation
import RunnectTestSupport
import Testing

/// Whether the independent GeoJSON reader (scripts/check_geojson.py: python3 with shapely and
/// geojson from PyPI) can run; `scripts/setup.sh --test` installs them, so CI always has them.
enum PythonGeo {
    static let present = ExternalTool.pythonImports("shapely", "geojson")
    static let missing = "python3 with shapely and geojson missing: run scripts/setup.sh --test"

    /// Runs the checker on an output and its inputs; returns its report, records a failure.
    @discardableResult
    static func check(
        _ output: String, inputs: [String], simplify: Double? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.currentDirectoryURL = PackageFolder.root
        process.arguments =
            ["python3", "scripts/check_geojson.py", output]
            + inputs.flatMap { ["--input", $0] } + (simplify.map { ["--simplify", "\($0)"] } ?? [])
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let report = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try? out.fileHandleForReading.close()
        let problems = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try? err.fileHandleForReading.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "check_geojson.py: \(problems)", sourceLocation: sourceLocation)
        return report
    }
}

@Suite("runnect export (end to end)")
struct ExportCommandTests {
    static let samples = [
        "banpo_hangang_night_run.gpx", "namsan_loop_two_segments.gpx", "olympic_park_route.gpx",
        "seokchon_lake_tapped.json", "yeouido_tapped_pairs.json", "cheonggyecheon_tapped.geojson",
        "gyeongui_line_forest_gpx10.gpx",
    ].map { "SampleTracks/" + $0 }

    typealias Scratch = StoreCommandTests.Scratch

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test(
        "geojson of every sample: one FeatureCollection that shapely and geojson read back to the input's positions",
        .requires(PythonGeo.present, PythonGeo.missing))
    func samplesRoundTrip() throws {
        let scratch = try Scratch()
        let out = scratch.path("all.geojson")
        let result = try scratch.run(["export", "geojson"] + Self.samples + ["-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let report = try PythonGeo.check(out, inputs: Self.samples)
        #expect(report.split(separator: "\n").count == Self.samples.count, "\(report)")

        let simplified = scratch.path("simplified.geojson")
        #expect(
            try scratch.run(["export", "geojson", "--simplify", "4"] + Self.samples + ["-o", simplified]).status == 0)
        try PythonGeo.check(simplified, inputs: Self.samples, simplify: 4)
    }

    static var corpusGPX: [String] {
        SharedCorpus.files(format: "gpx").filter { $0.hasPrefix("gpx/") }.map { SharedCorpus.url($0).path }
    }

    @Test(
        "geojson of every GPX file of ../shared/tracks round-trips through shapely and geojson",
        .sharedCorpus, .requires(PythonGeo.present, PythonGeo.missing))
    func corpusRoundTrip() throws {
        let scratch = try Scratch()
        for simplify in [nil, 3.0] as [Double?] {
            let out = scratch.path("corpus.geojson")
            let result = try scratch.run(
                ["export", "geojson"] + Self.corpusGPX + ["-o", out]
                    + (simplify.map { ["--simplify", "\($0)"] } ?? []))
            #expect(result.status == 0, "\(result.stderr)")
            try PythonGeo.check(out, inputs: Self.corpusGPX, simplify: simplify)
        }
    }

    @Test(
        "a run across the antimeridian becomes a MultiLineString cut at ±180° that round-trips",
        .requires(PythonGeo.present, PythonGeo.missing))
    func antimeridianRoundTrip() throws {
        let scratch = try Scratch()
        let lons = [179.9991, 179.9995, 179.9999, -179.9997, -179.9993, -179.9996, 179.9998, 179.9994]
        let points = lons.enumerated().map { i, lon in
            "<trkpt lat=\"\(-16.78 - Double(i) * 0.0003)\" lon=\"\(lon)\"><ele>\(10 + i)</ele></trkpt>"
        }.joined(separator: "\n")
        let gpx = scratch.path("taveuni.gpx")
        try
            "<gpx version=\"1.1\" creator=\"test\"><trk><name>Taveuni</name><trkseg>\n\(points)\n</trkseg></trk></gpx>\n"
            .write(toFile: gpx, atomically: true, encoding: .utf8)
        let result = try scratch.run(["export", "geojson", gpx])
        #expect(result.status == 0, "\(result.stderr)")
        let feature = try Self.json(result.stdout)
        let geometry = try #require(feature["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "MultiLineString")
        #expect((geometry["coordinates"] as? [Any])?.count == 3)
        let bbox = try #require(feature["bbox"] as? [Double])
        #expect(bbox[0] == 179.9991 && bbox[3] == -179.9993, "\(bbox)")  // west > east: crosses (RFC 7946 5.2)
        let out = scratch.path("taveuni.geojson")
        try result.stdout.write(toFile: out, atomically: true, encoding: .utf8)
        try PythonGeo.check(out, inputs: [gpx])
    }

    /// Imports the Namsan sample with a title and a departure: its id.
    static func importNamsan(_ scratch: Scratch) throws -> Int {
        let imported = try scratch.run([
            "import", "SampleTracks/namsan_loop_two_segments.gpx", "--title", "남산 <순환>",
            "--departure", "서울 중구 장충동", "--json",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        return try #require(try json(imported.stdout)["id"] as? Int)
    }

    @Test("a course from the store is a Feature with its id and the store's properties in snake_case")
    func fromStore() throws {
        let scratch = try Scratch()
        let id = try Self.importNamsan(scratch)
        let result = try scratch.run(["export", "geojson", "\(id)"])
        #expect(result.status == 0, "\(result.stderr)")
        let feature = try Self.json(result.stdout)
        #expect(feature["type"] as? String == "Feature")
        #expect(feature["id"] as? Int == id)
        let properties = try #require(feature["properties"] as? [String: Any])
        #expect(properties["title"] as? String == "남산 <순환>")
        #expect(properties["address"] as? String == "서울 중구 장충동")
        #expect(properties["is_uploaded"] as? Bool == false)
        #expect((properties["stats"] as? [String: Any])?["distance_m"] != nil)
        #expect((properties["created_at"] as? String)?.hasSuffix("Z") == true)

        // The SVG of a stored course carries its title, escaped.
        let svg = try scratch.run(["export", "svg", "\(id)"])
        #expect(svg.status == 0)
        #expect(svg.stdout.contains("<title>남산 &lt;순환&gt;</title>"))
    }

    @Test(
        "a course from the store passes the independent GeoJSON reader against its file",
        .requires(PythonGeo.present, PythonGeo.missing))
    func fromStoreChecked() throws {
        let scratch = try Scratch()
        let id = try Self.importNamsan(scratch)
        let result = try scratch.run(["export", "geojson", "\(id)"])
        #expect(result.status == 0, "\(result.stderr)")
        let out = scratch.path("stored.geojson")
        try result.stdout.write(toFile: out, atomically: true, encoding: .utf8)
        try PythonGeo.check(out, inputs: ["SampleTracks/namsan_loop_two_segments.gpx"])
    }

    @Test("svg: several inputs give one file each in the folder, reported one line each")
    func svgFolder() throws {
        let scratch = try Scratch()
        let folder = scratch.path("previews")
        let result = try scratch.run(
            ["export", "svg", "--size", "320x200", "--profile", "--json"] + Self.samples + ["-o", folder])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutLines.count == Self.samples.count)
        for (line, sample) in zip(result.stdoutLines, Self.samples) {
            let report = try Self.json(line)
            #expect(report["input"] as? String == sample)
            let output = try #require(report["output"] as? String)
            let text = try String(contentsOfFile: output, encoding: .utf8)
            #expect(text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"320\" height=\"200\""))
            #expect(text.utf8.count == report["bytes"] as? Int)
            #expect(!text.contains("<script") && !text.contains("href"))
        }
    }

    @Test("bad inputs: named on stderr with the exit code of the worst, the good ones still written")
    func errors() async throws {
        let scratch = try Scratch()
        let missing = try scratch.run(["export", "geojson", "no-such-file.gpx"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("no-such-file.gpx"))
        #expect(missing.stdout.isEmpty)

        let bad = scratch.path("bad.gpx")
        try "<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"91\" lon=\"0\"/></trkseg></trk></gpx>"
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let mixed = try scratch.run(["export", "geojson", bad, "SampleTracks/yeouido_tapped_pairs.json"])
        #expect(mixed.status == 65)
        #expect(mixed.stderr.contains("bad.gpx"))
        #expect(try Self.json(mixed.stdout)["type"] as? String == "FeatureCollection")

        try await scratch.makeStore()
        let unknown = try scratch.run(["export", "geojson", "424242"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("424242"))

        #expect(
            try scratch.run(["export", "svg", "--size", "12x9000", "SampleTracks/yeouido_tapped_pairs.json"]).status
                == 64)
        #expect(try scratch.run(["export", "svg"] + Self.samples.prefix(2)).status == 64)
        #expect(try scratch.run(["export", "geojson", "--simplify", "-1", Self.samples[0]]).status == 64)
        let unwritable = try scratch.run([
            "export", "geojson", Self.samples[0], "-o", scratch.path("no/such/dir/x.geojson"),
        ])
        #expect(unwritable.status == 73)
    }
}

extension StoreCommandTests.Scratch {
    /// A file in the scratch folder.
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
}
