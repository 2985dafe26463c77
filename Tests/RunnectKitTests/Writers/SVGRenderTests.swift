import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

/// Whether the renderer and Python are on the PATH.
enum RenderTools {
    static let present = ExternalTool.path("rsvg-convert") != nil && ExternalTool.path("python3") != nil
}

/// SVG previews rendered by a real SVG renderer (`rsvg-convert`, librsvg, as browsers and
/// desktop viewers use it), then looked at pixel by pixel (the PNG is decoded by
/// `scripts/png_pixels.py`, standard-library Python): the route's stroke lies where the
/// projection puts the points, far-away pixels are background, start and finish are marked, and a
/// square on the ground is square in the picture.
@Suite(
    "SVG preview rendered (rsvg-convert)",
    .requires(
        RenderTools.present,
        "rsvg-convert or python3 missing: run scripts/setup.sh --test (librsvg2-bin)"))
struct SVGRenderTests {
    struct Picture {
        let width: Int, height: Int
        let rgba: [Int]

        func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
            let i = (y * width + x) * 4
            return (rgba[i], rgba[i + 1], rgba[i + 2])
        }

        /// The route's colour, #e4572e, allowing for anti-aliasing at the stroke's edge.
        func isStroke(_ x: Int, _ y: Int) -> Bool {
            let p = pixel(x, y)
            return p.r > 170 && p.g < 150 && p.b < 120
        }

        func isBackground(_ x: Int, _ y: Int) -> Bool {
            let p = pixel(x, y)
            return p.r > 245 && p.g > 245 && p.b > 245
        }
    }

    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        try ExternalTool.output(of: tool, arguments)
    }

    /// Renders the preview with rsvg-convert and decodes the PNG, in a folder of its own that is
    /// removed afterwards (`RUNNECT_KEEP_RENDERS=1` keeps it, named in the output, for a look).
    static func render(_ preview: SVGPreview, name: String) throws -> Picture {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-render-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer {
            if ProcessInfo.processInfo.environment["RUNNECT_KEEP_RENDERS"] == "1" {
                print("kept \(folder.path)")
            } else {
                try? FileManager.default.removeItem(at: folder)
            }
        }
        let svg = folder.appendingPathComponent("runnect-render-\(name).svg")
        let png = folder.appendingPathComponent("runnect-render-\(name).png")
        try preview.svg.write(to: svg, atomically: true, encoding: .utf8)
        _ = try run("rsvg-convert", [svg.path, "-o", png.path])
        let script = PackageFolder.root.appendingPathComponent("scripts/png_pixels.py").path
        let json = try run("python3", [script, png.path])
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let picture = Picture(
            width: try #require(object["width"] as? Int), height: try #require(object["height"] as? Int),
            rgba: try #require(object["rgba"] as? [Int]))
        #expect(picture.width == preview.options.widthPixels && picture.height == preview.options.heightPixels)
        return picture
    }

    @Test(
        "the stroke lies where the projection puts the points, and away from it is background",
        arguments: [
            "banpo_hangang_night_run.gpx", "namsan_loop_two_segments.gpx", "olympic_park_route.gpx",
            "gyeongui_line_forest_gpx10.gpx",
        ])
    func strokeWherePointsProject(_ name: String) throws {
        let activity = try ActivityReader.read(path: SampleTracks.path(name))
        // A title full of markup must still give a document the renderer accepts.
        let preview = try SVGPreview(
            activity: activity,
            options: SVGPreviewOptions(
                widthPixels: 400, heightPixels: 300, title: "\(activity.displayName ?? name) & <b>\"x\"</b> 'y'"))
        let picture = try Self.render(preview, name: name)
        let points = activity.courseSegments.flatMap { $0 }
        let pixels = points.map { preview.pixel(for: $0.coordinate)! }
        let start = pixels.first!
        let finish = pixels.last!

        // Every point (outside the markers) is drawn: the pixel it projects to is stroke-coloured.
        var checked = 0
        var missed: [(Double, Double)] = []
        for p in pixels {
            let nearMarker = [start, finish].contains { hypot($0.x - p.x, $0.y - p.y) < 10 }
            if nearMarker { continue }
            checked += 1
            if !picture.isStroke(Int(p.x), Int(p.y)) { missed.append(p) }
        }
        #expect(checked > 10)
        #expect(
            missed.isEmpty, "\(missed.count) of \(checked) projected points not on the stroke, e.g. \(missed.prefix(3))"
        )

        // Every pixel 10 px or more from every projected point (and clear of the legs between
        // them) is background; there are many of them.
        var background = 0
        for y in stride(from: 2, to: picture.height, by: 7) {
            for x in stride(from: 2, to: picture.width, by: 7) {
                let far = pixels.allSatisfy { hypot($0.x - Double(x), $0.y - Double(y)) > 40 }
                if far {
                    #expect(picture.isBackground(x, y), "(\(x), \(y)) should be background")
                    background += 1
                }
            }
        }
        #expect(background > 100)

        // The fit: the route's extent touches the padding on one axis and is centred on the other.
        let xs = pixels.map(\.x)
        let ys = pixels.map(\.y)
        let marginX = (xs.min()!, 400 - xs.max()!)
        let marginY = (ys.min()!, 300 - ys.max()!)
        #expect(abs(marginX.0 - marginX.1) < 0.01 && abs(marginY.0 - marginY.1) < 0.01)
        #expect(abs(min(marginX.0, marginY.0) - 16) < 0.01)

        // Start green, finish red (where they are apart).
        let green = picture.pixel(Int(start.x), Int(start.y))
        #expect(green.g > 120 && green.r < 80, "start marker \(green)")
        if hypot(start.x - finish.x, start.y - finish.y) > 12 {
            let red = picture.pixel(Int(finish.x), Int(finish.y))
            #expect(red.r > 180 && red.g < 80, "finish marker \(red)")
        }
    }

    @Test("a square on the ground at 60°N is drawn square (Web Mercator keeps shapes)")
    func squareStaysSquare() throws {
        // 1 km sides: 1 km of latitude is 1/111.4 of a degree at 60°N; of longitude, twice as many degrees.
        let dLat = 1000 / 111_412.0
        let dLon = 1000 / 55_800.0
        let corners = [(60.0, 10.0), (60.0, 10 + dLon), (60 + dLat, 10 + dLon), (60 + dLat, 10.0), (60.0, 10.0)]
        let activity = Activity(
            format: .pointsText,
            routes: [
                Route(
                    points: corners.map {
                        TrackPoint(latitude: $0.0, longitude: $0.1)
                    })
            ])
        let preview = try SVGPreview(
            activity: activity, options: SVGPreviewOptions(widthPixels: 300, heightPixels: 200))
        let picture = try Self.render(preview, name: "square")
        var minX = Int.max
        var maxX = Int.min
        var minY = Int.max
        var maxY = Int.min
        for y in 0..<picture.height {
            for x in 0..<picture.width where picture.isStroke(x, y) {
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        let width = Double(maxX - minX)
        let height = Double(maxY - minY)
        #expect(height > 150)
        #expect(abs(width - height) <= 3, "stroke spans \(width) x \(height) px")
    }
}
