import CZlib
import Foundation

/// A course drawn as a PNG picture, for viewers that show pictures but not SVG (the Runnect app's
/// image loader): the route in Web Mercator fitted with padding, its aspect ratio kept, drawn
/// anti-aliased in the ``SVGPreview``'s colours, the start (green) and finish (red) marked. An
/// 8-bit RGB PNG with no metadata, made without any image library: the pixels are drawn here and
/// compressed by the system's zlib.
///
/// ```swift
/// let preview = try PNGPreview(activity: activity)
/// try Data(preview.png).write(to: URL(fileURLWithPath: "42.png"))
/// ```
public struct PNGPreview: Sendable {
    public let width: Int
    public let height: Int
    /// The PNG file.
    public let png: [UInt8]

    // SVGPreview's colours and sizes: the two pictures of a course look alike.
    static let background: (UInt8, UInt8, UInt8) = (0xFF, 0xFF, 0xFF)
    static let route: (UInt8, UInt8, UInt8) = (0xE4, 0x57, 0x2E)
    static let start: (UInt8, UInt8, UInt8) = (0x1F, 0x9D, 0x55)
    static let finish: (UInt8, UInt8, UInt8) = (0xD6, 0x28, 0x28)
    /// The route's width, pixels.
    static let routeWidth = 3.0
    /// A marker's white ring, pixels either side of its edge.
    static let ringWidth = 1.0

    /// Draws `activity`'s ``Activity/courseSegments``.
    /// - Throws: ``WriteError/invalidSize(width:height:)`` for a size outside 16…4096 pixels.
    public init(activity: Activity, width: Int = 640, height: Int = 480, padding: Double = 24) throws {
        guard (16...4096).contains(width), (16...4096).contains(height) else {
            throw WriteError.invalidSize(width: width, height: height)
        }
        self.width = width
        self.height = height
        var canvas = Canvas(width: width, height: height, color: Self.background)
        let segments = activity.courseSegments.map { $0.filter(SegmentMeasurement.hasPosition) }.filter { !$0.isEmpty }
        let mercator = WebMercatorFit.project(segments)
        let frame = (x: 0.0, y: 0.0, width: Double(width), height: Double(height))
        if let fit = WebMercatorFit(
            fitting: mercator, into: frame, padding: max(0, min(padding, Double(min(width, height)) / 4)))
        {
            var coverage = [Float](repeating: 0, count: width * height)
            for line in mercator {
                // Points within half a pixel of the simplified line add nothing to the picture.
                let all = line.map(fit.pixel)
                let pixels = Simplifier.keptIndices(x: all.map(\.x), y: all.map(\.y), tolerance: 0.5).map { all[$0] }
                if pixels.count == 1 {
                    Canvas.stroke(
                        from: pixels[0], to: pixels[0], width: Self.routeWidth, into: &coverage, size: (width, height))
                }
                for (a, b) in zip(pixels, pixels.dropFirst()) {
                    Canvas.stroke(from: a, to: b, width: Self.routeWidth, into: &coverage, size: (width, height))
                }
            }
            canvas.paint(coverage, color: Self.route)
            // The finish is the larger disc under the start, so a loop shows both.
            for (point, radius, color) in [
                (fit.pixel(mercator.last!.last!), 7.0, Self.finish),
                (fit.pixel(mercator.first!.first!), 4.0, Self.start),
            ] {
                canvas.disc(at: point, radius: radius + Self.ringWidth, color: Self.background)
                canvas.disc(at: point, radius: radius - Self.ringWidth, color: color)
            }
        }
        png = canvas.encodedPNG()
    }
}

/// An RGB picture being drawn: coverage-based anti-aliasing (each pixel's share of a shape,
/// from its centre's distance to it), then PNG encoding.
private struct Canvas {
    let width: Int
    let height: Int
    var rgb: [UInt8]

    init(width: Int, height: Int, color: (UInt8, UInt8, UInt8)) {
        self.width = width
        self.height = height
        rgb = [UInt8](repeating: 0, count: width * height * 3)
        for index in 0..<(width * height) {
            rgb[3 * index] = color.0
            rgb[3 * index + 1] = color.1
            rgb[3 * index + 2] = color.2
        }
    }

    /// Raises `coverage` to each pixel's share of a round-capped stroke from `a` to `b`. The
    /// maximum, not a sum: where the route crosses itself it is no darker.
    static func stroke(
        from a: (x: Double, y: Double), to b: (x: Double, y: Double), width strokeWidth: Double,
        into coverage: inout [Float], size: (Int, Int)
    ) {
        let half = strokeWidth / 2
        let minX = max(0, Int((min(a.x, b.x) - half - 1).rounded(.down)))
        let maxX = min(size.0 - 1, Int((max(a.x, b.x) + half + 1).rounded(.up)))
        let minY = max(0, Int((min(a.y, b.y) - half - 1).rounded(.down)))
        let maxY = min(size.1 - 1, Int((max(a.y, b.y) + half + 1).rounded(.up)))
        guard minX <= maxX, minY <= maxY else { return }
        let dx = b.x - a.x
        let dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        for y in minY...maxY {
            let py = Double(y) + 0.5
            for x in minX...maxX {
                let px = Double(x) + 0.5
                var t = lengthSquared > 0 ? ((px - a.x) * dx + (py - a.y) * dy) / lengthSquared : 0
                t = min(max(t, 0), 1)
                let ex = px - (a.x + t * dx)
                let ey = py - (a.y + t * dy)
                let share = Float(min(max(half + 0.5 - (ex * ex + ey * ey).squareRoot(), 0), 1))
                let index = y * size.0 + x
                if share > coverage[index] { coverage[index] = share }
            }
        }
    }

    mutating func paint(_ coverage: [Float], color: (UInt8, UInt8, UInt8)) {
        for (index, share) in coverage.enumerated() where share > 0 {
            blend(index, color, share)
        }
    }

    /// A filled, anti-aliased disc, painted within its own bounds.
    mutating func disc(at center: (x: Double, y: Double), radius: Double, color: (UInt8, UInt8, UInt8)) {
        let minX = max(0, Int((center.x - radius - 1).rounded(.down)))
        let maxX = min(width - 1, Int((center.x + radius + 1).rounded(.up)))
        let minY = max(0, Int((center.y - radius - 1).rounded(.down)))
        let maxY = min(height - 1, Int((center.y + radius + 1).rounded(.up)))
        guard minX <= maxX, minY <= maxY else { return }
        for y in minY...maxY {
            for x in minX...maxX {
                let dx = Double(x) + 0.5 - center.x
                let dy = Double(y) + 0.5 - center.y
                let share = Float(min(max(radius + 0.5 - (dx * dx + dy * dy).squareRoot(), 0), 1))
                if share > 0 { blend(y * width + x, color, share) }
            }
        }
    }

    private mutating func blend(_ index: Int, _ color: (UInt8, UInt8, UInt8), _ share: Float) {
        func mix(_ old: UInt8, _ new: UInt8) -> UInt8 {
            UInt8((Float(old) * (1 - share) + Float(new) * share).rounded())
        }
        rgb[3 * index] = mix(rgb[3 * index], color.0)
        rgb[3 * index + 1] = mix(rgb[3 * index + 1], color.1)
        rgb[3 * index + 2] = mix(rgb[3 * index + 2], color.2)
    }

    /// Signature, IHDR (8-bit RGB), one IDAT (rows with filter 0, zlib level 6), IEND.
    func encodedPNG() -> [UInt8] {
        var raw = [UInt8]()
        raw.reserveCapacity(height * (width * 3 + 1))
        for row in 0..<height {
            raw.append(0)
            raw += rgb[(row * width * 3)..<((row + 1) * width * 3)]
        }
        var compressedLength = compressBound(uLong(raw.count))
        var compressed = [UInt8](repeating: 0, count: Int(compressedLength))
        let status = compress2(&compressed, &compressedLength, raw, uLong(raw.count), 6)
        precondition(status == Z_OK, "zlib's compress2 failed (\(status)) with a buffer of compressBound's size")
        compressed.removeSubrange(Int(compressedLength)...)

        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func chunk(_ type: String, _ data: [UInt8]) {
            let body = Array(type.utf8) + data
            png += bigEndian(UInt32(data.count))
            png += body
            png += bigEndian(UInt32(crc32(0, body, uInt(body.count))))
        }
        chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0])
        chunk("IDAT", compressed)
        chunk("IEND", [])
        return png
    }

    private func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
