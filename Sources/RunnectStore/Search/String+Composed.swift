extension String {
    /// This text composed (Unicode's NFC), as `precomposedStringWithCanonicalMapping` makes it,
    /// without Foundation's normaliser where ``isTriviallyComposed`` tells it is already so: a
    /// Korean address or title read back from a store, most keywords.
    ///
    /// Foundation on Linux leaves a precomposed syllable without a final consonant followed by a
    /// trailing jamo as it is (`가` U+AC00 + `ᆨ` U+11A8), where NFC composes the two (`각`
    /// U+AC01, as Python's `unicodedata.normalize` does): that step of Unicode's algorithmic
    /// Hangul composition (chapter 3.12) is done here after Foundation's.
    package var composed: String {
        isTriviallyComposed ? self : precomposedStringWithCanonicalMapping.withTrailingJamoComposed
    }

    /// Each syllable without a final consonant (LV) followed by a trailing consonant jamo
    /// (U+11A8–U+11C2) made the one syllable with that final (LVT); the text itself when it has
    /// no such pair.
    var withTrailingJamoComposed: String {
        let scalars = Array(unicodeScalars)
        guard scalars.indices.dropFirst().contains(where: { Self.syllable(scalars[$0 - 1], final: scalars[$0]) != nil })
        else { return self }
        var composed = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if index + 1 < scalars.count, let syllable = Self.syllable(scalars[index], final: scalars[index + 1]) {
                composed.append(syllable)
                index += 2
            } else {
                composed.append(scalars[index])
                index += 1
            }
        }
        return String(composed)
    }

    /// The syllable `lv` (one without a final consonant) with the trailing jamo `final` as its
    /// final (Unicode 3.12: LV + TIndex); nil for any other pair.
    static func syllable(_ lv: Unicode.Scalar, final: Unicode.Scalar) -> Unicode.Scalar? {
        let trailingBase: UInt32 = 0x11A7
        let trailingCount: UInt32 = 28
        let (syllable, trailing) = (lv.value, final.value)
        guard trailing > trailingBase, trailing < trailingBase + trailingCount,
            syllable >= KoreanText.firstSyllable, syllable <= KoreanText.lastSyllable,
            (syllable - KoreanText.firstSyllable) % trailingCount == 0
        else { return nil }
        return Unicode.Scalar(syllable + trailing - trailingBase)
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
