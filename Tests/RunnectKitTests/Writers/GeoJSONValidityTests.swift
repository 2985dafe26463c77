import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

/// Writer output checked against the RFC 7946 rules (``GeoJSONRules``), over the sample tracks and
/// over seeded random tracks, some across the antimeridian.
@Suite("GeoJSON validity (RFC 7946)")
struct GeoJSONValidityTests {
    static let samples = [
        "banpo_hangang_night_run.gpx", "namsan_loop_two_segments.gpx", "olympic_park_route.gpx",
        "seokchon_lake_tapped.json", "yeouido_tapped_pairs.json", "cheonggyecheon_tapped.geojson",
        "gyeongui_line_forest_gpx10.gpx",
    ]

    @Test("every sample track, alone and together, with and without simplification", arguments: [nil, 2.0, 25.0])
    func samples(tolerance: Double?) throws {
        var collection = GeoJSONWriter(options: GeoJSONOptions(simplifyToleranceMeters: tolerance))
        for name in Self.samples {
            let activity = try ActivityReader.read(path: SampleTracks.path(name))
            let data = try GeoJSONWriter.document(
                for: activity, id: 7, properties: ["title": name],
                options: GeoJSONOptions(simplifyToleranceMeters: tolerance))
            #expect(GeoJSONRules.problems(in: data) == [], "\(name)")
            try collection.add(activity, properties: ["title": name])
        }
        #expect(GeoJSONRules.problems(in: collection.featureCollection()) == [])
    }

    /// A wandering track of `count` points starting at (lat, lon), steps of up to `step` degrees.
    static func randomTrack(
        _ rng: inout SplitMix64, lat: Double, lon: Double, count: Int, step: Double,
        elevation: Bool
    ) -> Activity {
        var points: [TrackPoint] = []
        var la = lat
        var lo = lon
        for _ in 0..<count {
            var longitude = lo
            if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
            if abs(abs(longitude) - 180) < step && rng.chance(1, in: 4) {
                longitude = rng.chance(1, in: 2) ? 180 : -180
            }
            points.append(
                TrackPoint(
                    latitude: la, longitude: longitude,
                    elevationMeters: elevation ? rng.double(in: -20...3000) : nil))
            la = min(max(la + rng.double(in: -step...step), -89.9), 89.9)
            lo += rng.double(in: -step...step)
        }
        let cut = rng.int(in: 1...(count - 1))
        return Activity(
            format: .gpx11,
            tracks: [
                Track(segments: [
                    TrackSegment(points: Array(points[..<cut])), TrackSegment(points: Array(points[cut...])),
                ])
            ])
    }

    @Test("seeded random tracks, many across the antimeridian, with and without elevation")
    func randomTracks() throws {
        var rng = SplitMix64(seed: 7946)
        for round in 0..<300 {
            let nearAntimeridian = round % 2 == 0
            let activity = Self.randomTrack(
                &rng, lat: rng.double(in: -80...80),
                lon: nearAntimeridian ? rng.double(in: 179.9...180.1) : rng.double(in: -179...179),
                count: rng.int(in: 2...400), step: 0.003, elevation: round % 3 != 0)
            let tolerance: Double? = round % 4 == 0 ? rng.double(in: 0.5...50) : nil
            let data = try GeoJSONWriter.document(
                for: activity, options: GeoJSONOptions(simplifyToleranceMeters: tolerance))
            let problems = GeoJSONRules.problems(in: data)
            #expect(problems == [], "round \(round)")
            if !problems.isEmpty { break }
        }
    }

    /// The corpus files Runnect refuses (ReferenceCorpusGPXTests checks why).
    static let refusedCorpusFiles = Set(ReferenceCorpusGPXTests.expectedErrors.keys)

    @Test(
        "every file of ../shared/tracks (GPX, TCX, FIT, edge cases) but the refused ones reads and gives valid GeoJSON and a clean SVG",
        .sharedCorpus)
    func corpus() throws {
        var refused: Set<String> = []
        var written = 0
        var files = 0
        for folder in ["gpx", "tcx", "fit", "edge"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: SharedCorpus.url(folder).path).sorted()
            for name in names {
                files += 1
                let activity: Activity
                do {
                    activity = try ActivityReader.read(path: SharedCorpus.url("\(folder)/\(name)").path)
                } catch is ReadError {
                    refused.insert("\(folder)/\(name)")
                    continue
                }
                for tolerance in [nil, 5.0] as [Double?] {
                    let data = try GeoJSONWriter.document(
                        for: activity, options: GeoJSONOptions(simplifyToleranceMeters: tolerance))
                    #expect(GeoJSONRules.problems(in: data) == [], "\(folder)/\(name)")
                }
                let svg = try SVGPreview(activity: activity, options: SVGPreviewOptions(includeProfile: true)).svg
                #expect(!svg.lowercased().contains("nan") && svg.hasSuffix("</svg>\n"), "\(folder)/\(name)")
                written += 1
            }
        }
        #expect(refused == Self.refusedCorpusFiles)
        #expect(files == SharedCorpus.reference.count, "every file of reference.json, no other")
        #expect(written == files - Self.refusedCorpusFiles.count)
    }

    @Test("collections of courses on both sides of the antimeridian get one crossing bbox")
    func collectionAcrossAntimeridian() throws {
        var writer = GeoJSONWriter()
        for lon in [179.5, -179.5, 179.9] {
            let points = [
                TrackPoint(latitude: -17, longitude: lon), TrackPoint(latitude: -17.01, longitude: lon + 0.01),
            ]
            .map { p in
                var p = p
                if p.longitude > 180 { p.longitude -= 360 }
                return p
            }
            try writer.add(Activity(format: .gpx11, tracks: [Track(segments: [TrackSegment(points: points)])]))
        }
        let data = writer.featureCollection()
        #expect(GeoJSONRules.problems(in: data) == [])
        let document = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(document["bbox"]?.array?.compactMap(\.number) == [179.5, -17.01, -179.49, -17])
    }

    @Test(
        "the rules catch what they are meant to catch",
        arguments: [
            // lat, lon swapped
            #"{"type":"Feature","bbox":[37,127,37.1,127.1],"geometry":{"type":"LineString","coordinates":[[37,127],[37.1,127.1]]},"properties":{}}"#,
            // a step across ±180 inside one line
            #"{"type":"Feature","bbox":[179.9,1,-179.9,2],"geometry":{"type":"LineString","coordinates":[[179.9,1],[-179.9,2]]},"properties":{}}"#,
            // a bbox that misses a position, and one that is not tight
            #"{"type":"Feature","bbox":[0,0,1,1],"geometry":{"type":"LineString","coordinates":[[0,0],[2,1]]},"properties":{}}"#,
            #"{"type":"Feature","bbox":[0,0,3,1],"geometry":{"type":"LineString","coordinates":[[0,0],[2,1]]},"properties":{}}"#,
            // mixed dimensions, and a bbox of the wrong length
            #"{"type":"Feature","bbox":[0,0,2,1],"geometry":{"type":"LineString","coordinates":[[0,0,5],[2,1]]},"properties":{}}"#,
            #"{"type":"Feature","bbox":[0,0,2,1],"geometry":{"type":"LineString","coordinates":[[0,0,5],[2,1,6]]},"properties":{}}"#,
            // one position, properties not an object, unclosed
            #"{"type":"Feature","bbox":[0,0,0,0],"geometry":{"type":"LineString","coordinates":[[0,0]]},"properties":{}}"#,
            #"{"type":"Feature","bbox":[0,0,2,1],"geometry":{"type":"LineString","coordinates":[[0,0],[2,1]]},"properties":[1]}"#,
            #"{"type":"Feature","bbox":[0,0,2,1],"geometry":{"type":"LineString","coordinates":[[0,0],[2,1]]},"properties":{}"#,
        ])
    func rulesCatchBreaches(_ text: String) {
        #expect(!GeoJSONRules.problems(in: Data(text.utf8)).isEmpty)
    }
}
