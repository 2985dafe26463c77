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

    /// Unicode's NFC of texts with a trailing jamo, as Python's `unicodedata.normalize("NFC", …)`
    /// gives it (Python 3, Unicode 15): a syllable without a final and a trailing jamo compose
    /// (the first to the last trailing jamo), a syllable with a final and anything else do not.
    @Test(
        "a trailing jamo after a syllable composes as Unicode's NFC says",
        arguments: [
            ("\u{AC00}\u{11A8}", "\u{AC01}"), ("\u{AC01}\u{11A8}", "\u{AC01}\u{11A8}"),
            ("\u{D55C}\u{11AB}", "\u{D55C}\u{11AB}"), ("\u{B9C8}\u{11AF}\u{B9AC}", "\u{B9D0}\u{B9AC}"),
            ("\u{AC00}\u{11C2}", "\u{AC1B}"), ("\u{AC00}\u{11C3}", "\u{AC00}\u{11C3}"),
            ("\u{1100}\u{1161}\u{11A8}", "\u{AC01}"), ("x\u{AC00}\u{11A8}\u{301}", "x\u{AC01}\u{301}"),
        ])
    func trailingJamoComposes(text: String, nfc: String) {
        #expect(Array(text.composed.unicodeScalars) == Array(nfc.unicodeScalars))
    }

    @Test(
        "the same text as Foundation's NFC where Foundation composes it", arguments: texts.filter { $0 != "가\u{11A8}" })
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
