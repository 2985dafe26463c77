import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

@Suite("SVG preview")
struct SVGPreviewTests {
    @Test("a sample track gives a small self-contained SVG with an escaped title")
    func sample() throws {
        let activity = try ActivityReader.read(path: SampleTracks.path("banpo_hangang_night_run.gpx"))
        let preview = try SVGPreview(
            activity: activity, options: SVGPreviewOptions(includeProfile: true, title: "A & <B>"))
        #expect(preview.svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(preview.svg.contains("<title>A &amp; &lt;B&gt;</title>"))
        #expect(!preview.svg.contains("<script"))
        #expect(preview.svg.utf8.count < 16_000)
    }
}

@Suite("SVG preview edge cases")
struct SVGPreviewEdgeTests {
    static func activity(_ coordinates: [(Double, Double)]) -> Activity {
        Activity(
            format: .gpx11,
            tracks: [
                Track(segments: [
                    TrackSegment(
                        points: coordinates.map {
                            TrackPoint(latitude: $0.0, longitude: $0.1)
                        })
                ])
            ])
    }

    @Test("titles are escaped; characters XML forbids are dropped")
    func escaping() throws {
        let title = "<script>alert('x')</script> & \"q\" \u{1}\u{FFFE}러닝"
        let preview = try SVGPreview(
            activity: Self.activity([(37.5, 127), (37.51, 127.01)]),
            options: SVGPreviewOptions(title: title))
        #expect(
            preview.svg.contains(
                "<title>&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt; &amp; &quot;q&quot; 러닝</title>"))
        #expect(!preview.svg.contains("<script"))
        #expect(!preview.svg.unicodeScalars.contains { $0.value == 1 || $0.value == 0xFFFE })
    }

    @Test("a run across the antimeridian is drawn in one piece")
    func antimeridian() throws {
        let preview = try SVGPreview(activity: Self.activity([(-16.8, 179.99), (-16.81, -179.99), (-16.8, -179.98)]))
        let west = try #require(preview.pixel(for: Coordinate(latitude: -16.8, longitude: 179.99)))
        let east = try #require(preview.pixel(for: Coordinate(latitude: -16.8, longitude: -179.98)))
        #expect(east.x > west.x)  // east of the line is to the right, not across the world
        #expect(abs(east.x - 384) < 1e-6 && abs(west.x - 16) < 1e-6)
    }

    @Test(
        "one point, no point, the poles and bad sizes never give NaN or a crash",
        arguments: [
            [(37.5, 127.0)], [], [(90.0, 0.0), (-90.0, 10.0), (89.0, 5.0)], [(.nan, 1.0), (1.0, 2.0), (1.001, 2.0)],
        ])
    func degenerate(_ coordinates: [(Double, Double)]) throws {
        let preview = try SVGPreview(
            activity: Self.activity(coordinates), options: SVGPreviewOptions(includeProfile: true))
        #expect(!preview.svg.lowercased().contains("nan") && !preview.svg.contains("inf"))
        #expect(preview.svg.hasSuffix("</svg>\n"))
    }

    @Test("sizes outside 16…8192 pixels are refused")
    func sizes() {
        #expect(throws: WriteError.invalidSize(width: 8, height: 300)) {
            try SVGPreview(activity: Self.activity([]), options: SVGPreviewOptions(widthPixels: 8))
        }
    }
}
