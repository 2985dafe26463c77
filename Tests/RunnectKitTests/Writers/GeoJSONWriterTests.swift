import Foundation
import Testing
@testable import RunnectKit

@Suite("GeoJSON writer")
struct GeoJSONWriterTests {
    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("a sample track reads back through the GeoJSON reader with the same positions")
    func roundTripThroughReader() throws {
        let activity = try ActivityReader.read(path: SampleTracks.path("gyeongui_line_forest_gpx10.gpx"))
        let data = try GeoJSONWriter.document(for: activity, properties: ["title": "경의선숲길"])
        let back = try ActivityReader.read(from: MemoryByteStream(String(decoding: data, as: UTF8.self)))
        #expect(back.format == .geoJSON)
        #expect(back.courseSegments.flatMap { $0 }.map(\.coordinate)
                == activity.courseSegments.flatMap { $0 }.map(\.coordinate))
    }

    @Test("a line across the antimeridian is cut at ±180° and its bbox wraps")
    func antimeridian() throws {
        let points = [(-16.8, 179.98), (-16.81, 179.995), (-16.82, -179.99), (-16.83, -179.97)]
            .map { TrackPoint(latitude: $0.0, longitude: $0.1, elevationMeters: 10) }
        let activity = Activity(format: .gpx11, tracks: [Track(segments: [TrackSegment(points: points)])])
        let feature = try Self.object(try GeoJSONWriter.document(for: activity))
        let geometry = try #require(feature["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "MultiLineString")
        let lines = try #require(geometry["coordinates"] as? [[[Double]]])
        #expect(lines.count == 2)
        #expect(lines[0].last?[0] == 180)
        #expect(lines[1].first?[0] == -180)
        #expect(lines[0].last?[1] == lines[1].first?[1])
        // The crossing's latitude lies on the straight leg between the two fixes (0.005 / 0.015 of it).
        #expect(abs(lines[0].last![1] - (-16.81 - 0.01 / 3)) < 1e-12)
        let bbox = try #require(feature["bbox"] as? [Double])
        #expect(bbox == [179.98, -16.83, 10, -179.97, -16.8, 10])
    }

    @Test("properties must be a JSON object")
    func propertiesNotAnObject() {
        let activity = Activity(format: .pointsText, routes: [Route(points: [TrackPoint(latitude: 1, longitude: 2)])])
        #expect(throws: WriteError.self) { try GeoJSONWriter.document(for: activity, properties: [1, 2]) }
    }
}
