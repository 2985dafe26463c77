/// Text and numbers made safe for an XML document (GPX, TCX, SVG): one rule for every writer.
enum XMLText {
    /// Whether XML 1.0 allows `scalar` in a document at all (its `Char` production): tab, line
    /// feed, carriage return, and everything from U+0020 on but U+FFFE and U+FFFF. (A Swift string
    /// holds no surrogate.)
    @inline(__always)
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return true
        case 0..<0x20, 0xFFFE, 0xFFFF: return false
        default: return true
        }
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
            default:
                if isAllowed(scalar) { result.unicodeScalars.append(scalar) }
            }
        }
        return result
    }

    /// A name as a file's one-line name field: every control (line breaks, tabs, C0, C1, bidi
    /// overrides; ``ControlCharacters``) becomes a space and characters XML forbids are dropped,
    /// runs of white space become one, and the ends are trimmed. Markup is not escaped here.
    static func oneLine(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if ControlCharacters.isControl(scalar) || scalar.properties.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            guard isAllowed(scalar) else { continue }
            if pendingSpace {
                result.append(" ")
                pendingSpace = false
            }
            result.append(scalar)
        }
        return String(result)
    }

    /// A finite number in decimal notation (`xsd:decimal`: no exponent), as the shortest text
    /// that reads back as the same `Double`: `37.5665`, `0.00001` (Swift's own `1e-05`),
    /// `12.0`.
    static func decimal(_ value: Double) -> String {
        let text = value.description
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return text }
        // d.ddde±x → move the point x places.
        let exponent = Int(text[text.index(after: e)...])!
        var mantissa = text[..<e]
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let whole = String(parts[0])
        var digits = whole + (parts.count > 1 ? String(parts[1]) : "")
        var point = whole.count + exponent
        if point <= 0 {
            digits = String(repeating: "0", count: 1 - point) + digits
            point = 1
        } else if point > digits.count {
            digits += String(repeating: "0", count: point - digits.count)
        }
        var fraction = digits.dropFirst(point)
        while fraction.hasSuffix("0") { fraction = fraction.dropLast() }
        return (negative ? "-" : "") + digits.prefix(point) + "." + (fraction.isEmpty ? "0" : fraction)
    }
}
