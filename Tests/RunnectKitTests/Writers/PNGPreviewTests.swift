import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

/// The PNG preview against the SVG preview of the same course drawn by a real SVG renderer
/// (`rsvg-convert`), both decoded by Pillow (`scripts/map_images.py compare`): the same picture
/// but for anti-aliasing at the edges.
@Suite(
    "PNG preview, against the SVG preview rendered by rsvg-convert",
    .requires(
        ExternalTool.path("rsvg-convert") != nil && ExternalTool.pythonImports("PIL"),
        "rsvg-convert or Pillow missing: run scripts/setup.sh --test (librsvg2-bin, pillow)"))
struct PNGPreviewTests {
    @Test(arguments: ["banpo_hangang_night_run.gpx", "namsan_loop_two_segments.gpx", "seokchon_lake_tapped.json"])
    func theSamePictureAsTheSVG(sample: String) async throws {
        let activity = try ActivityReader.read(path: SampleTracks.path(sample))
        let png = try PNGPreview(activity: activity, width: 640, height: 480, padding: 24)
        let svg = try SVGPreview(
            activity: activity, options: SVGPreviewOptions(widthPixels: 640, heightPixels: 480, paddingPixels: 24))
        try await withTemporaryDirectory { folder in
            let ours = folder.appendingPathComponent("ours.png")
            try Data(png.png).write(to: ours)
            let svgFile = folder.appendingPathComponent("preview.svg")
            try svg.svg.write(to: svgFile, atomically: true, encoding: .utf8)
            let rendered = folder.appendingPathComponent("rendered.png")
            _ = try ExternalTool.output(of: "rsvg-convert", ["-o", rendered.path, svgFile.path])
            let answer = try ExternalTool.output(
                of: "python3", [PackageFolder.url("scripts/map_images.py").path, "compare", ours.path, rendered.path])
            let result = try #require(try JSONSerialization.jsonObject(with: answer) as? [String: Any])
            #expect(result["sizes"] as? [[Int]] == [[640, 480], [640, 480]])
            let share = try #require(result["differing_share"] as? Double)
            #expect(share < 0.005, "\(sample): \(share * 100) % of the pixels differ")
            let route = try #require(result["route_pixels"] as? [Int])
            // The route is drawn, about as thick as the renderer draws it.
            #expect(route[0] > 300)
            #expect(abs(Double(route[0] - route[1])) < 0.2 * Double(route[1]), "\(sample): \(route)")
        }
    }

    @Test func anOddSizeIsRefused() throws {
        let activity = try ActivityReader.read(path: SampleTracks.path("banpo_hangang_night_run.gpx"))
        #expect(throws: WriteError.invalidSize(width: 8, height: 480)) {
            try PNGPreview(activity: activity, width: 8, height: 480)
        }
    }

}
