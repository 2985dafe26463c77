import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

@Suite("XML text: escaping, one-line names, decimals")
struct XMLTextTests {
    @Test("decimal(_:) reads back as the same Double, never with an exponent, over 20,000 seeded values")
    func decimalsRoundTrip() {
        var random = SplitMix64(seed: 13)
        var failures: [String] = []
        for _ in 0..<20_000 {
            let value = random.magnitude(decades: -12...7) * (random.chance(1, in: 2) ? -1 : 1)
            let text = XMLText.decimal(value)
            if Double(text) != value || text.contains(where: { !"-0123456789.".contains($0) }) {
                failures.append("\(value) → \(text)")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(XMLText.decimal(1e-05) == "0.00001")
        #expect(XMLText.decimal(-2.5e-7) == "-0.00000025")
        #expect(XMLText.decimal(1.5e20) == "150000000000000000000.0")
        #expect(XMLText.decimal(37.5665) == "37.5665")
        #expect(XMLText.decimal(12) == "12.0")
        #expect(XMLText.decimal(-0.0) == "-0.0")
    }

    @Test("escaped(_:) writes entities for markup and drops what XML 1.0 forbids")
    func escaping() {
        #expect(
            XMLText.escaped("<a href=\"x\">Tom & Jerry's</a>")
                == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;")
        #expect(XMLText.escaped("a\u{0}b\u{1B}c\u{FFFE}d\u{FFFF}e\tf\ng") == "abcde\tf\ng")
        #expect(XMLText.escaped("한강 🏃") == "한강 🏃")
    }

    @Test("oneLine(_:) turns controls and runs of white space into one space, trims, drops forbidden characters")
    func oneLine() {
        #expect(XMLText.oneLine("  a\tb\n\n c\u{0}d\u{202E}e  ") == "a b c d e")
        #expect(XMLText.oneLine("x\u{FFFE}y") == "xy")
        #expect(XMLText.oneLine("\u{1B}[31m") == "[31m")
        #expect(XMLText.oneLine("\n\t ") == "")
    }
}
