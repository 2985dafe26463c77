import Foundation

/// Why a file could not be read as an activity. Messages name the place (line and column for XML,
/// byte offset for binary formats) so the file can be fixed or reported.
public enum ReadError: Error, Equatable, Sendable {
    /// The file could not be opened or read.
    case io(String)
    /// The content is none of the formats Runnect reads.
    case unrecognizedFormat(String)
    /// XML that is not well formed (truncated, mismatched tags, …).
    case malformedXML(String, line: Int, column: Int)
    /// A value that cannot be what the format says it is (a latitude of 91°, a time of `yesterday`).
    case invalidValue(String, line: Int, column: Int)
    /// Well-formed content that breaks the format's rules (a tapped-points list with one point, …).
    case invalidContent(String)
    /// A single token or file larger than the reader accepts (untrusted input is bounded).
    case tooLarge(limitBytes: Int)
    /// A binary file (FIT) that breaks its format at a byte offset from the start of the file.
    case malformedBinary(String, byteOffset: Int)
}

extension ReadError: CustomStringConvertible {
    /// One line: `line 12, column 5: …` where the place is known.
    public var description: String {
        switch self {
        case .io(let message): return "cannot read: \(message)"
        case .unrecognizedFormat(let message): return "unrecognised format: \(message)"
        case .malformedXML(let message, let line, let column):
            return "line \(line), column \(column): malformed XML: \(message)"
        case .invalidValue(let message, let line, let column):
            return line > 0 ? "line \(line), column \(column): \(message)" : message
        case .invalidContent(let message): return message
        case .tooLarge(let limit): return "input too large (limit \(limit / (1 << 20)) MiB)"
        case .malformedBinary(let message, let offset): return "byte \(offset): \(message)"
        }
    }

    /// `text` as it goes into a one-line message: surrounding whitespace trimmed, line breaks and
    /// other control characters escaped (`\n`, `\u{01}`), at most `limit` characters.
    static func excerpt(_ text: String, limit: Int = 60) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var out = ""
        for scalar in trimmed.unicodeScalars {
            if out.count >= limit { return out + "…" }
            out += scalar.properties.generalCategory == .control ? scalar.escaped(asASCII: false) : String(scalar)
        }
        return out
    }

    /// The line the problem was found on, where known.
    public var line: Int? {
        switch self {
        case .malformedXML(_, let line, _), .invalidValue(_, let line, _): return line > 0 ? line : nil
        default: return nil
        }
    }
}
