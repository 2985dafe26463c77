/// The text of an SVG document, element by element. Only fixed markup, numbers and escaped text
/// are ever written.
struct SVGText {
    private var text: String

    init(width: Int, height: Int) {
        text =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
            + "viewBox=\"0 0 \(width) \(height)\">\n"
    }

    mutating func title(_ title: String) {
        text += "<title>\(Self.escaped(title))</title>\n"
    }

    mutating func background(color: String) {
        text += "<rect width=\"100%\" height=\"100%\" fill=\"\(color)\"/>\n"
    }

    mutating func route(_ pathData: String, color: String) {
        guard !pathData.isEmpty else { return }
        text +=
            "<path d=\"\(pathData)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"3\" "
            + "stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n"
    }

    mutating func marker(at point: (x: Double, y: Double), radius: Double, color: String) {
        text +=
            "<circle cx=\"\(SVGPathData.format(point.x))\" cy=\"\(SVGPathData.format(point.y))\" "
            + "r=\"\(SVGPathData.format(radius))\" fill=\"\(color)\" stroke=\"#ffffff\" stroke-width=\"2\"/>\n"
    }

    mutating func profile(line: String, area: String, color: String) {
        text += "<path d=\"\(area)\" fill=\"\(color)\" fill-opacity=\"0.2\" stroke=\"none\"/>\n"
        text +=
            "<path d=\"\(line)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\" "
            + "stroke-linejoin=\"round\"/>\n"
    }

    func finish() -> String {
        text + "</svg>\n"
    }

    /// Text made safe for XML character data and attribute values: the five markup characters
    /// become entities, and characters XML 1.0 does not allow (most C0 controls, U+FFFE, U+FFFF)
    /// are dropped.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
