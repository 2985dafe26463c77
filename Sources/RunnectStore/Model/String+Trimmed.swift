import Foundation

extension String {
    /// This text without leading and trailing whitespace and newlines, as
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives it, without Foundation's character
    /// set where the first and the last scalar are plainly neither (ASCII but a space or a
    /// control, or a Hangul syllable): a departure's parts read back from a store.
    ///
    /// Why: Foundation's trimming was 4 % of the benchmark client's CPU in a PostgreSQL search at
    /// a million courses (`perf`, 2026-11-27), the detail and name of each page's 20 departures.
    package var trimmedOfWhitespace: String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last,
            Self.isPlainlyNotWhitespace(first), Self.isPlainlyNotWhitespace(last)
        else { return trimmingCharacters(in: .whitespacesAndNewlines) }
        return self
    }

    /// A printable ASCII scalar but the space, or a precomposed Hangul syllable.
    private static func isPlainlyNotWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value > 0x20 && value < 0x7F) || (value >= KoreanText.firstSyllable && value <= KoreanText.lastSyllable)
    }
}
