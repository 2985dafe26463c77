import Foundation
import Testing

@testable import RunnectStore

struct StringTrimmedTests {
    /// The fast path gives exactly Foundation's trimming: text that needs none, and every kind of
    /// whitespace and newline at either end (ASCII, no-break, ideographic, line separator).
    @Test(arguments: [
        "", " ", "\t\n", "올림픽로 424", "Olympic-ro 424", "a", "가", "ㅇ", " 올림픽로", "올림픽로 ", "\u{00A0}잠실",
        "잠실\u{3000}", "\u{2028}x", "x\u{0085}", "\t탭", "줄\n", "\u{200B}폭 없는", "é", "e\u{301}", "\u{1F3C3}",
        "1\u{202F}", "\u{001F}x",
    ])
    func trimsAsFoundationDoes(text: String) {
        #expect(text.trimmedOfWhitespace == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
