import Foundation
import Testing

@testable import RunnectStore

/// `String.composed`: Unicode's NFC, as Foundation's normaliser gives it, with Foundation skipped
/// only for text that is NFC by construction.
@Suite("Search: composed text")
struct StringComposedTests {
    /// Decomposed Hangul (as macOS file names carry it), a combining accent, a trailing jamo after
    /// a syllable, compatibility jamo, a Hangul address with digits, ASCII, Latin-1 and an empty text.
    static let texts = [
        "\u{1112}\u{1161}\u{11AB}\u{1100}\u{1161}\u{11BC}", "Cafe\u{301} run", "가\u{11A8}", "ㅎㄱ 10k", "서울 송파구 올림픽로 424",
        "Han River 10k", "Café", "",
    ]

    @Test("the same text as Foundation's NFC", arguments: texts)
    func sameAsFoundation(text: String) {
        let composed = text.composed
        #expect(composed == text.precomposedStringWithCanonicalMapping)
        // Compared by scalars: `==` on String already treats canonical equivalents as equal.
        #expect(Array(composed.unicodeScalars) == Array(text.precomposedStringWithCanonicalMapping.unicodeScalars))
    }

    @Test func onlyTextNFCByConstructionSkipsTheNormaliser() {
        #expect("서울 송파구 올림픽로 424".isTriviallyComposed)
        #expect("ㅎㄱ 10k".isTriviallyComposed)
        #expect(!"\u{1112}\u{1161}\u{11AB}".isTriviallyComposed)
        #expect(!"가\u{11A8}".isTriviallyComposed)
        #expect(!"Café".isTriviallyComposed)
        #expect(Array("\u{1112}\u{1161}\u{11AB}".composed.unicodeScalars) == ["\u{D55C}"])
    }

    /// A stored departure read back keeps its text as stored, and a decomposed one is composed.
    @Test func aDepartureIsComposed() {
        let departure = Departure(region: "\u{1109}\u{1165}\u{110B}\u{116E}\u{11AF}", city: "송파구", town: "잠실동")
        #expect(Array(departure.region.unicodeScalars) == Array("서울".unicodeScalars))
        #expect(departure.city == "송파구")
    }
}
