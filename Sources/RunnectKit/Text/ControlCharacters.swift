/// Control characters in text, under one rule everywhere:
///
/// - **Text a user types** (a title, a description, a departure, a user name) that holds a control
///   character is refused, with the character and its place named (``first(in:allowingLineBreaks:)``).
///   A description may span lines: it may hold line feeds and tabs.
/// - **Text read from a file** (a GPX `<name>`, a TCX `<Notes>`, a Strava `activities.csv` cell)
///   has each control replaced (``replacing(in:keepingLineBreaks:)``): line breaks and tabs by a
///   space (or kept, in a description), every other control by U+FFFD `�`, so `a\0b` reads
///   `a�b`, never `a`.
/// - **Human-readable output** never writes a control raw (``escaped(_:keepingLineBreaks:)``): what is left (a
///   course stored by an older version, a file name) is shown as `\u{1B}`. JSON output escapes
///   controls by itself.
///
/// A control is a Unicode `Cc` scalar (C0, DEL, C1: ESC, BEL, CR, NUL, the 8-bit CSI U+009B, …) or a
/// bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069), which reorder how
/// a line is shown and so can forge one (`#99 … by admin`) as well as an escape sequence can.
public enum ControlCharacters {
    /// Whether `scalar` is a control by the rule above.
    @inlinable
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// The first control of `text`, and its place (1-based, in characters as a user counts them);
    /// `nil` when there is none.
    /// - Parameters:
    ///   - text: The text to look through.
    ///   - allowingLineBreaks: Line feeds and tabs are allowed (a description).
    public static func first(in text: String, allowingLineBreaks: Bool = false)
        -> (scalar: Unicode.Scalar, position: Int)?
    {
        guard text.unicodeScalars.contains(where: isControl) else { return nil }
        for (index, character) in text.enumerated() {
            for scalar in character.unicodeScalars where isControl(scalar) {
                if allowingLineBreaks && (scalar == "\n" || scalar == "\t") { continue }
                return (scalar, index + 1)
            }
        }
        return nil
    }

    /// `text` with each control replaced: CR LF, CR, LF and tab by a space (or, with
    /// `keepingLineBreaks`, line breaks by `\n` and tabs kept), every other control by U+FFFD.
    public static func replacing(in text: String, keepingLineBreaks: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        var previous: Unicode.Scalar = "\0"
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            guard isControl(scalar) else {
                result.append(scalar)
                continue
            }
            switch scalar {
            case "\n" where previous == "\r":
                continue  // the CR of this CR LF is written already
            case "\r", "\n":
                result.append(keepingLineBreaks ? "\n" : " ")
            case "\t":
                result.append(keepingLineBreaks ? "\t" : " ")
            default:
                result.append("\u{FFFD}")
            }
        }
        return String(result)
    }

    /// `text` with each control written as a visible escape (`\u{1B}`), for a terminal.
    /// - Parameters:
    ///   - text: The text to escape.
    ///   - keepingLineBreaks: Line feeds are left as they are (the caller indents what follows
    ///     them).
    public static func escaped(_ text: String, keepingLineBreaks: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if !isControl(scalar) || (keepingLineBreaks && scalar == "\n") {
                result.unicodeScalars.append(scalar)
            } else {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }

    /// How a control is named in a message: `U+001B`.
    public static func name(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
