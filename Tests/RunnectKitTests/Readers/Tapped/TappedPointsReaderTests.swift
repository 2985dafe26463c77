import Foundation
import Testing

@testable import RunnectKit

@Suite("Tapped points reader")
struct TappedPointsReaderTests {
    static let taps = [
        Coordinate(latitude: 37.51, longitude: 127.06),
        Coordinate(latitude: 37.5112, longitude: 127.0621),
        Coordinate(latitude: 37.5125, longitude: 127.0644),
    ]

    static func expectTaps(
        _ activity: Activity, format: ActivityFormat,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(activity.format == format, sourceLocation: sourceLocation)
        #expect(activity.routes.count == 1, sourceLocation: sourceLocation)
        #expect(activity.routes.first?.points.map(\.coordinate) == taps, sourceLocation: sourceLocation)
    }

    @Test func text() throws {
        Self.expectTaps(
            try TappedPointsReader.read(text: "37.5100,127.0600 37.5112,127.0621\n37.5125,127.0644"),
            format: .pointsText)
    }

    @Test(
        "the service's JSON shapes and GeoJSON are detected from the content",
        arguments: [
            (
                "[{\"latitude\":37.51,\"longitude\":127.06},{\"latitude\":37.5112,\"longitude\":127.0621},{\"latitude\":37.5125,\"longitude\":127.0644}]",
                ActivityFormat.pointsJSON
            ),
            ("[[37.51,127.06],[37.5112,127.0621],[37.5125,127.0644]]", .pointsJSON),
            (
                "{\"type\":\"LineString\",\"coordinates\":[[127.06,37.51],[127.0621,37.5112],[127.0644,37.5125]]}",
                .geoJSON
            ),
            (
                "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{\"title\":\"잠실\"},\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[127.06,37.51],[127.0621,37.5112],[127.0644,37.5125]]}}]}",
                .geoJSON
            ),
            ("37.5100,127.0600 37.5112,127.0621 37.5125,127.0644", .pointsText),
        ])
    func detected(_ content: String, _ format: ActivityFormat) throws {
        Self.expectTaps(try ActivityReader.read(from: MemoryByteStream(content)), format: format)
    }

    @Test("the distance of a drawn course is the sum of geodesic legs between taps")
    func distance() throws {
        let activity = try TappedPointsReader.read(text: "37.5100,127.0600 37.5112,127.0621 37.5125,127.0644")
        let expected =
            Geodesic.distance(from: Self.taps[0], to: Self.taps[1])! + Geodesic.distance(
                from: Self.taps[1], to: Self.taps[2])!
        #expect(abs(activity.stats().distanceMeters - expected) < 1e-9)
        #expect(activity.stats().elapsedTimeSeconds == nil)
        #expect(activity.stats().averagePaceSecondsPerKilometer == nil)
    }

    @Test(
        "bad taps are refused with the point's number",
        arguments: [
            ("37.51,127.06", "at least 2 points"),
            ("37.51,127.06 91,127", "point 2"),
            ("37.51;127.06 1,2", "point 1"),
            ("[{\"latitude\":\"37\",\"longitude\":127},{\"latitude\":1,\"longitude\":2}]", "point 1"),
            ("[1, 2", "invalid JSON"),
            ("{\"type\":\"Polygon\",\"coordinates\":[]}", "Polygon"),
        ])
    func refused(_ content: String, _ fragment: String) throws {
        let error = try #require(throws: ReadError.self) { try ActivityReader.read(from: MemoryByteStream(content)) }
        #expect(error.description.contains(fragment), "\(error)")
    }
}
