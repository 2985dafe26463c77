import Foundation

/// The text rules behind keyword search, with no database in sight: one normal form for stored
/// text and typed keywords, the initial-consonant (초성) projection of Hangul, the jamo-aware
/// substring test, and the short grams the search index is made of.
///
/// The unit throughout is the Unicode scalar, as in SQLite's `instr`, `length` and FTS5
/// tokenizers: after NFC a Hangul syllable is one scalar, so "one syllable" means one unit on
/// both sides.
package enum KoreanText {
    // MARK: - Hangul arithmetic

    /// 가, the first precomposed syllable.
    static let firstSyllable: UInt32 = 0xAC00
    /// 힣, the last precomposed syllable.
    static let lastSyllable: UInt32 = 0xD7A3
    /// Syllables sharing one initial consonant: 21 medial vowels × 28 finals (none included).
    static let syllablesPerInitial: UInt32 = 21 * 28

    /// The 19 initial consonants as Hangul compatibility jamo, in the order of the syllable block:
    /// initial index `i` of a syllable is `(scalar − 0xAC00) / 588`.
    static let initialConsonants: [Unicode.Scalar] = [
        "\u{3131}", "\u{3132}", "\u{3134}", "\u{3137}", "\u{3138}", "\u{3139}", "\u{3141}",
        "\u{3142}", "\u{3143}", "\u{3145}", "\u{3146}", "\u{3147}", "\u{3148}", "\u{3149}",
        "\u{314A}", "\u{314B}", "\u{314C}", "\u{314D}", "\u{314E}",
    ]  // ㄱ ㄲ ㄴ ㄷ ㄸ ㄹ ㅁ ㅂ ㅃ ㅅ ㅆ ㅇ ㅈ ㅉ ㅊ ㅋ ㅌ ㅍ ㅎ

    /// Compatibility-jamo offset (scalar − 0x3131, 0…29) → initial index, or −1 for the jamo that
    /// cannot start a syllable (clusters such as ㄳ, ㄺ).
    private static let initialIndexByJamoOffset: [Int8] = {
        var table = [Int8](repeating: -1, count: 0x314E - 0x3131 + 1)
        for (index, jamo) in initialConsonants.enumerated() {
            table[Int(jamo.value - 0x3131)] = Int8(index)
        }
        return table
    }()

    static func isSyllable(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= firstSyllable && scalar.value <= lastSyllable
    }

    /// The initial index (0…18) of a compatibility-jamo consonant that can start a syllable.
    static func initialIndex(ofConsonant scalar: Unicode.Scalar) -> Int? {
        guard scalar.value >= 0x3131, scalar.value <= 0x314E else { return nil }
        let index = initialIndexByJamoOffset[Int(scalar.value - 0x3131)]
        return index < 0 ? nil : Int(index)
    }

    /// Whether `scalar` is one of ㄱ ㄲ ㄴ ㄷ ㄸ ㄹ ㅁ ㅂ ㅃ ㅅ ㅆ ㅇ ㅈ ㅉ ㅊ ㅋ ㅌ ㅍ ㅎ.
    static func isInitialConsonant(_ scalar: Unicode.Scalar) -> Bool {
        initialIndex(ofConsonant: scalar) != nil
    }

    /// The initial consonant of a precomposed syllable (`한` → `ㅎ`); any other scalar unchanged.
    static func initial(of scalar: Unicode.Scalar) -> Unicode.Scalar {
        guard isSyllable(scalar) else { return scalar }
        return initialConsonants[Int((scalar.value - firstSyllable) / syllablesPerInitial)]
    }

    /// The syllables whose initial is the consonant with initial index `index`: `가…깋` for ㄱ.
    static func syllableRange(initialIndex index: Int) -> ClosedRange<UInt32> {
        let first = firstSyllable + UInt32(index) * syllablesPerInitial
        return first...(first + syllablesPerInitial - 1)
    }

    // MARK: - Normal form

    /// The form both stored text and keywords are compared in: NFC, then Unicode lowercase
    /// (full mappings, not only ASCII), with the conjoining initial consonants U+1100…U+1112 left
    /// alone by NFC (a lone `ᄒ` typed on some keyboards) mapped to their compatibility jamo, so
    /// `ᄒᄀ` works as `ㅎㄱ`.
    ///
    /// Decomposed Hangul (U+1112 U+1161 U+11AB) composes to the syllable 한 (U+D55C).
    package static func normalize(_ text: String) -> String {
        if text.isTriviallyComposed {
            return text.lowercased()  // only ASCII letters can change here, and stay NFC
        }
        let lowered = text.composed.lowercased()
        var scalars = String.UnicodeScalarView()
        var changed = false
        for scalar in lowered.unicodeScalars {
            if scalar.value >= 0x1100, scalar.value <= 0x1112 {
                scalars.append(initialConsonants[Int(scalar.value - 0x1100)])
                changed = true
            } else {
                scalars.append(scalar)
            }
        }
        let mapped = changed ? String(scalars) : lowered
        // Full lowercase mappings can emit base + combining mark sequences (U+0130 İ → i U+0307)
        // that NFC would compose differently in other text: one more pass keeps the promise.
        return mapped.composed
    }

    /// Whether a scalar separates keywords (and so never occurs inside one): Unicode's
    /// `White_Space` property, spelled out because the property lookup is slow in a hot loop.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
            return true
        default:
            return false
        }
    }

    // MARK: - Initials projection

    /// `normalized` with every precomposed syllable replaced by its initial consonant
    /// (`잠실 한강공원 10k` → `ㅈㅅ ㅎㄱㄱㅇ 10k`); same length in scalars, so positions line up.
    package static func initials(of normalized: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in normalized.unicodeScalars {
            scalars.append(initial(of: scalar))
        }
        return String(scalars)
    }

    // MARK: - Keywords

    /// One keyword, normalised, with what the index needs to find it.
    package struct Word: Hashable, Sendable {
        /// How a word is matched.
        package enum Kind: Sendable {
            /// No initial consonant: a plain substring of the normalised text.
            case plain
            /// Initial consonants and no syllable (`ㅎㄱ`, `ㅇㄹㅍ`, `ㅋ10`): a plain substring
            /// of the initials projection, which is exact for such words.
            case initials
            /// Syllables and initial consonants (`한ㄱ`): found through the initials projection,
            /// then checked position by position against the text itself.
            case mixed
        }

        /// The normalised word.
        package let text: String
        package let kind: Kind

        init(normalized text: String) {
            self.text = text
            var hasConsonant = false
            var hasSyllable = false
            for scalar in text.unicodeScalars {
                if KoreanText.isInitialConsonant(scalar) { hasConsonant = true }
                if KoreanText.isSyllable(scalar) { hasSyllable = true }
            }
            kind = !hasConsonant ? .plain : (hasSyllable ? .mixed : .initials)
        }

        /// The text the index is searched for: the word itself, or its initials projection.
        package var indexText: String {
            kind == .plain ? text : KoreanText.initials(of: text)
        }
    }

    /// The keywords of a search box, normalised and split on whitespace, duplicates dropped
    /// (first occurrence kept, so the order is the user's). Empty for blank input.
    package static func words(in keywords: String) -> [Word] {
        let normalized = normalize(keywords)
        var seen = Set<String>()
        var words: [Word] = []
        for piece in normalized.unicodeScalars.split(whereSeparator: isSpace) {
            let text = String(String.UnicodeScalarView(piece))
            if seen.insert(text).inserted {
                words.append(Word(normalized: text))
            }
        }
        return words
    }

    // MARK: - Matching

    /// Whether one query scalar matches one text scalar: equal, or the query is an initial
    /// consonant and the text is a syllable starting with it (`ㅎ` matches `한`).
    static func scalarMatches(query: Unicode.Scalar, text: Unicode.Scalar) -> Bool {
        if query == text { return true }
        guard isSyllable(text), isInitialConsonant(query) else { return false }
        return initial(of: text) == query
    }

    /// The longest run of `word` that a match holds literally (its scalars other than initial
    /// consonants; the first such run when two are as long), or `nil` when every scalar is one:
    /// `하` of `하ㄱ`, `10` of `ㅋ10`, a plain word whole. A `strpos` test for it is exact for a
    /// plain word and a necessary condition for the others.
    package static func literalRun(of word: Word) -> String? {
        let runs = word.text.unicodeScalars.split(whereSeparator: isInitialConsonant)
        guard let longest = runs.max(by: { $0.count < $1.count }) else { return nil }
        return String(String.UnicodeScalarView(longest))
    }

    /// The reference definition of a match: `word` (normalised) occurs in `text` (normalised) at
    /// some position, scalar by scalar under ``scalarMatches(query:text:)``. The SQL the index
    /// runs must agree with this; the tests hold them to it.
    package static func contains(_ text: String, word: String) -> Bool {
        let haystack = Array(text.unicodeScalars)
        let needle = Array(word.unicodeScalars)
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) {
            var offset = 0
            while offset < needle.count,
                scalarMatches(query: needle[offset], text: haystack[start + offset])
            {
                offset += 1
            }
            if offset == needle.count { return true }
        }
        return false
    }

    /// A SQLite `GLOB` pattern that accepts exactly the texts ``contains(_:word:)`` accepts:
    /// `*` + one element per scalar + `*`, where an initial consonant becomes the class of its
    /// syllables plus itself (`ㄱ` → `[가-깋ㄱ]`) and GLOB's own metacharacters are bracketed
    /// (`*` → `[*]`, `?` → `[?]`, `[` → `[[]`), so user text stays data. SQLite compares class
    /// ranges by code point. The pattern is bound as a parameter, never pasted into SQL.
    static func globPattern(for word: String) -> String {
        var pattern = String.UnicodeScalarView()
        pattern.append("*")
        for scalar in word.unicodeScalars {
            if let index = initialIndex(ofConsonant: scalar) {
                let range = syllableRange(initialIndex: index)
                pattern.append("[")
                pattern.append(Unicode.Scalar(range.lowerBound)!)
                pattern.append("-")
                pattern.append(Unicode.Scalar(range.upperBound)!)
                pattern.append(scalar)
                pattern.append("]")
            } else if scalar == "*" || scalar == "?" || scalar == "[" {
                pattern.append("[")
                pattern.append(scalar)
                pattern.append("]")
            } else {
                pattern.append(scalar)
            }
        }
        pattern.append("*")
        return String(pattern)
    }

    // MARK: - Grams

    /// Longest gram the index keeps; longer keywords are looked up by grams of this length that
    /// cover them (a superset the search then checks exactly).
    static let maxGramLength = 3

    /// A gram of 1…3 scalars packed in 63 bits, `scalar + 1` in each 21-bit lane and 0 past its
    /// end, so grams of different lengths never collide.
    package typealias Gram = UInt64

    static func gram(_ scalars: ArraySlice<Unicode.Scalar>) -> Gram {
        precondition(scalars.count <= maxGramLength, "a gram has at most \(maxGramLength) scalars")
        var packed: Gram = 0
        var shift: Gram = 0
        for scalar in scalars {
            packed |= Gram(scalar.value + 1) << shift
            shift += 21
        }
        return packed
    }

    /// The distinct grams, sorted, of `normalized` (1…``maxGramLength`` scalars, none holding
    /// whitespace) and of its initials projection.
    ///
    /// The two projections share one gram space without ambiguity: a text gram is kept only
    /// when it holds no initial consonant, an initials gram only when it holds one. A plain
    /// keyword (no initial consonant) is then only ever looked up among text grams, and a
    /// consonant keyword only among initials grams; a projected gram without a consonant is the
    /// text gram at the same place.
    static func indexGrams(of normalized: String) -> [Gram] {
        let text = Array(normalized.unicodeScalars)
        var grams: [Gram] = []
        grams.reserveCapacity(text.count * maxGramLength * 2)
        for start in text.indices {
            var textGram: Gram = 0
            var projectedGram: Gram = 0
            var textHasConsonant = false
            var projectedHasConsonant = false
            var shift: Gram = 0
            for index in start..<min(start + maxGramLength, text.count) {
                let scalar = text[index]
                if isSpace(scalar) { break }
                let projected = initial(of: scalar)
                if isInitialConsonant(scalar) { textHasConsonant = true }
                if isInitialConsonant(projected) { projectedHasConsonant = true }
                textGram |= Gram(scalar.value + 1) << shift
                projectedGram |= Gram(projected.value + 1) << shift
                shift += 21
                if !textHasConsonant { grams.append(textGram) }
                if projectedHasConsonant { grams.append(projectedGram) }
            }
        }
        grams.sort()
        var distinct = 0
        for gram in grams where distinct == 0 || grams[distinct - 1] != gram {
            grams[distinct] = gram
            distinct += 1
        }
        grams.removeLast(grams.count - distinct)
        return grams
    }

    /// The grams a keyword is looked up by, all of which a match holds: the word itself when it
    /// is at most ``maxGramLength`` long, else grams of that length covering it end to end
    /// (`올림픽공원` → `올림픽`, `픽공원`). Every extra gram costs a term lookup per index
    /// segment, and the few false candidates a sparser cover lets through are checked away.
    package static func lookupGrams(for word: Word) -> [Gram] {
        let scalars = Array(word.indexText.unicodeScalars)
        if scalars.count <= maxGramLength { return [gram(scalars[...])] }
        var starts = Array(stride(from: 0, to: scalars.count - maxGramLength, by: maxGramLength))
        starts.append(scalars.count - maxGramLength)
        var grams: [Gram] = []
        for start in starts {
            let next = gram(scalars[start..<(start + maxGramLength)])
            if !grams.contains(next) { grams.append(next) }
        }
        return grams
    }

    private static let digits = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

    /// Appends a gram as an FTS5 bareword: `prefix` (an ASCII lowercase letter naming the
    /// field), then four base-36 digits per scalar (36⁴ > 0x10FFFF). A token is ASCII letters
    /// and digits whatever the user typed, so no user text ever reaches FTS5 as syntax.
    static func appendToken(prefix: UInt8, gram: Gram, to bytes: inout [UInt8]) {
        bytes.append(prefix)
        var rest = gram
        while rest != 0 {
            var value = UInt32(rest & 0x1F_FFFF) - 1
            rest >>= 21
            let start = bytes.count
            bytes.append(contentsOf: [0, 0, 0, 0])
            for i in (0..<4).reversed() {
                bytes[start + i] = digits[Int(value % 36)]
                value /= 36
            }
        }
    }

    /// One token, for queries.
    package static func token(prefix: UInt8, gram: Gram) -> String {
        var bytes: [UInt8] = []
        appendToken(prefix: prefix, gram: gram, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The index document of one field: its grams as space-separated tokens.
    static func document(prefix: UInt8, grams: [Gram]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(grams.count * 10)
        for gram in grams {
            if !bytes.isEmpty { bytes.append(0x20) }
            appendToken(prefix: prefix, gram: gram, to: &bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
