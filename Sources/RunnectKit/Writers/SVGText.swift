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
        text += "<title>\(XMLText.escaped(title))</title>\n"
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
}
