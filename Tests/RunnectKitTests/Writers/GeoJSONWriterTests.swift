import Foundation
import RunnectTestSupport
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
        #expect(
            back.courseSegments.flatMap { $0 }.map(\.coordinate)
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

    struct Properties: Encodable {
        let title: String
        let createdAt: Date
        enum CodingKeys: String, CodingKey { case title, createdAt = "created_at" }
    }

    @Test("one point is a Point, none a null geometry without bbox; id, dates as ISO 8601, waypoints after the course")
    func shapes() throws {
        let one = Activity(
            format: .pointsText, routes: [Route(points: [TrackPoint(latitude: 37.5, longitude: 127.25)])])
        let point = try Self.object(
            try GeoJSONWriter.document(
                for: one, id: 3,
                properties: Properties(
                    title: "a", createdAt: Date(timeIntervalSince1970: 1_746_000_000.5))))
        #expect(point["id"] as? Int == 3)
        #expect((point["geometry"] as? [String: Any])?["type"] as? String == "Point")
        #expect(point["bbox"] as? [Double] == [127.25, 37.5, 127.25, 37.5])
        #expect((point["properties"] as? [String: Any])?["created_at"] as? String == "2025-04-30T08:00:00.5Z")

        let none = try Self.object(try GeoJSONWriter.document(for: Activity(format: .gpx11)))
        #expect(none["geometry"] is NSNull && none["bbox"] == nil && none["properties"] is NSNull)

        var withWaypoints = one
        withWaypoints.routes[0].points.append(TrackPoint(latitude: 37.51, longitude: 127.26, elevationMeters: 30))
        withWaypoints.waypoints = [
            Waypoint(
                name: "물 \"급수대\"", point: TrackPoint(latitude: 37.505, longitude: 127.255, elevationMeters: 12.3456))
        ]
        let collection = try Self.object(try GeoJSONWriter.document(for: withWaypoints, id: 9))
        let features = try #require(collection["features"] as? [[String: Any]])
        #expect(features.count == 2)
        #expect(
            (features[0]["geometry"] as? [String: Any])?["coordinates"] as? [[Double]] == [
                [127.25, 37.5], [127.26, 37.51],
            ])
        let waypoint = try #require(features[1]["properties"] as? [String: Any])
        #expect(
            waypoint["name"] as? String == "물 \"급수대\"" && waypoint["course_id"] as? Int == 9
                && waypoint["kind"] as? String == "waypoint")
        #expect((features[1]["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [127.255, 37.505, 12.346])
        // The collection's bbox: 2-D, since the course has no elevation everywhere.
        #expect(collection["bbox"] as? [Double] == [127.25, 37.5, 127.26, 37.51])
    }

    @Test("decimals round the coordinates; no elevation leaves the third value out")
    func options() throws {
        let activity = Activity(
            format: .gpx11,
            tracks: [
                Track(segments: [
                    TrackSegment(points: [
                        TrackPoint(latitude: 37.123456789, longitude: 127.987654321, elevationMeters: 10.0004),
                        TrackPoint(latitude: 37.2, longitude: 128, elevationMeters: 11),
                    ])
                ])
            ])
        let text = String(
            decoding: try GeoJSONWriter.document(
                for: activity,
                options: GeoJSONOptions(
                    includeElevation: false, coordinateDecimals: 5)), as: UTF8.self)
        #expect(text.contains("\"coordinates\":[[127.98765,37.12346],[128.0,37.2]]"))
        let full = String(decoding: try GeoJSONWriter.document(for: activity), as: UTF8.self)
        #expect(full.contains("[[127.987654321,37.123456789,10.0],[128.0,37.2,11.0]]"))
    }
}

@Suite("JSON numbers in GeoJSON")
struct JSONBytesTests {
    @Test("every number reads back as the same Double, and is JSON")
    func roundTrip() throws {
        var rng = SplitMix64(seed: 1)
        var values: [Double] = [127, -0.00001, 1e-300, 0.1 + 0.2, -179.9999]
        for round in 0..<20_000 {
            switch round % 3 {
            case 0: values.append(rng.double(in: -180...180))
            case 1: values.append((rng.double(in: -180...180) * 1e7).rounded() / 1e7)
            default:
                values.append(
                    Double(
                        sign: rng.chance(1, in: 2) ? .minus : .plus,
                        exponent: rng.int(in: -60...60), significand: rng.double(in: 1...2)))
            }
        }
        var out = JSONBytes(decimals: nil)
        out.raw("[")
        for (index, value) in values.enumerated() {
            if index > 0 { out.raw(",") }
            out.number(value)
        }
        out.raw("]")
        // JSONDecoder (not JSONSerialization, whose Linux doubles are not correctly rounded).
        let back = try JSONDecoder().decode([Double].self, from: Data(out.bytes))
        #expect(back == values)
    }
}
