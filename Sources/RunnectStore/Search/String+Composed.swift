extension String {
    /// This text composed (Unicode's NFC), as `precomposedStringWithCanonicalMapping` makes it,
    /// without Foundation's normaliser where ``isTriviallyComposed`` tells it is already so: a
    /// Korean address or title read back from a store, most keywords.
    package var composed: String {
        isTriviallyComposed ? self : precomposedStringWithCanonicalMapping
    }

    /// Whether every scalar is ASCII, a precomposed Hangul syllable or a compatibility jamo: such
    /// text is NFC, and nothing in it composes with a neighbour.
    ///
    /// Why: Foundation's normaliser was 12 % of a search's CPU in the store (`perf`, 2026-11-27:
    /// the departures of the 20 courses of a page, normalised again as they were read back).
    package var isTriviallyComposed: Bool {
        for scalar in unicodeScalars {
            let value = scalar.value
            if value < 0x80 { continue }
            if value >= KoreanText.firstSyllable, value <= KoreanText.lastSyllable { continue }
            if value >= 0x3131, value <= 0x318E { continue }
            return false
        }
        return true
    }
}
