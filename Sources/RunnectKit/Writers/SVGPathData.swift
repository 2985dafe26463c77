/// SVG path data (`M x y L x y x y …`) with coordinates to a tenth of a pixel.
struct SVGPathData {
    private(set) var text = ""

    /// Adds a polyline as one sub-path, simplified to `tolerance` pixels (Douglas–Peucker);
    /// positions that round to the one before are left out.
    mutating func addSubpath(_ pixels: [(x: Double, y: Double)], tolerance: Double) {
        guard !pixels.isEmpty else { return }
        let kept = Simplifier.keptIndices(x: pixels.map(\.x), y: pixels.map(\.y), tolerance: tolerance)
        var previous: (Int, Int)?
        var emitted = 0
        for index in kept {
            let tenths = (Self.tenths(pixels[index].x), Self.tenths(pixels[index].y))
            if let previous, previous == tenths { continue }
            if !text.isEmpty { text += emitted == 1 ? "L" : " " }
            if emitted == 0 { text += "M" }
            text += Self.format(tenths: tenths.0) + " " + Self.format(tenths: tenths.1)
            previous = tenths
            emitted += 1
        }
        if emitted == 1 {
            // A single position: a zero-length line, which round caps draw as a dot.
            text += "h0"
        }
    }

    /// A pixel coordinate to a tenth: `12.3`, `40`, `-0.5`.
    static func format(_ value: Double) -> String {
        format(tenths: tenths(value))
    }

    private static func tenths(_ value: Double) -> Int {
        Int((min(max(value, -1e9), 1e9) * 10).rounded())
    }

    private static func format(tenths: Int) -> String {
        let magnitude = abs(tenths)
        let whole = "\(tenths < 0 ? "-" : "")\(magnitude / 10)"
        return magnitude % 10 == 0 ? whole : "\(whole).\(magnitude % 10)"
    }
}
