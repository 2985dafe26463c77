import Foundation
import RunnectKit
import Testing

@Suite("Control characters: refused when typed, replaced when read, escaped when shown")
struct ControlCharactersTests {
    @Test(
        "C0, DEL, C1 and bidirectional overrides are controls; Hangul, emoji, ZWJ, RLM are not",
        arguments: [
            ("\u{1B}", true), ("\u{07}", true), ("\r", true), ("\0", true), ("\n", true), ("\u{7F}", true),
            ("\u{9B}", true), ("\u{202E}", true), ("\u{2066}", true), ("한", false), ("a", false),
            ("\u{200D}", false), ("\u{200F}", false), (" ", false), ("\u{FFFD}", false),
        ])
    func classification(text: String, isControl: Bool) {
        #expect(ControlCharacters.isControl(text.unicodeScalars.first!) == isControl)
    }

    @Test("first(in:) names the control and its place in characters; a description may hold line feeds and tabs")
    func first() throws {
        let found = try #require(ControlCharacters.first(in: "반포 \u{1B}]0;x\u{07}"))
        #expect(found.scalar == "\u{1B}" && found.position == 4)
        #expect(ControlCharacters.first(in: "line 1\nline 2\tend", allowingLineBreaks: true) == nil)
        #expect(ControlCharacters.first(in: "line 1\r\nline 2", allowingLineBreaks: true)?.scalar == "\r")
        #expect(ControlCharacters.first(in: "a\nb")?.position == 2)
        #expect(ControlCharacters.first(in: "한강 야간 러닝 🏃‍♀️ 10K") == nil)
    }

    @Test("replacing: NUL and ESC become U+FFFD (a\\0b never becomes a), line breaks a space or one LF")
    func replacing() {
        #expect(ControlCharacters.replacing(in: "a\0b") == "a\u{FFFD}b")
        #expect(ControlCharacters.replacing(in: "x\u{1B}[2Jy\u{9B}z") == "x\u{FFFD}[2Jy\u{FFFD}z")
        #expect(ControlCharacters.replacing(in: "one\r\ntwo\rthree\nfour\tfive") == "one two three four five")
        #expect(
            ControlCharacters.replacing(in: "one\r\ntwo\rthree\n\tfour", keepingLineBreaks: true)
                == "one\ntwo\nthree\n\tfour")
        #expect(ControlCharacters.replacing(in: "\u{202E}nimda yb") == "\u{FFFD}nimda yb")
        #expect(ControlCharacters.replacing(in: "반포 한강") == "반포 한강")
    }

    @Test("escaped: every control visible, nothing else touched")
    func escaped() {
        #expect(ControlCharacters.escaped("\u{1B}]0;pwned\u{07}") == "\\u{1B}]0;pwned\\u{7}")
        #expect(ControlCharacters.escaped("#1\n#99 by admin") == "#1\\u{A}#99 by admin")
        #expect(ControlCharacters.escaped("a\nb\rc", keepingLineBreaks: true) == "a\nb\\u{D}c")
        #expect(ControlCharacters.escaped("잠실 10K") == "잠실 10K")
        #expect(ControlCharacters.name("\u{1B}") == "U+001B" && ControlCharacters.name("\u{202E}") == "U+202E")
    }

    @Test("a GPX file's name and description have their controls replaced by the reader")
    func readerReplaces() throws {
        let gpx = """
            <?xml version="1.0"?><gpx version="1.1" creator="x\u{1B}y" xmlns="http://www.topografix.com/GPX/1/1">\
            <metadata><name>a\u{0}b \u{1B}]0;pwned\u{07}</name><desc>first\r\nsecond\u{9B}2J</desc></metadata>\
            <trk><name>t\u{0D}rack</name><trkseg><trkpt lat="37.5" lon="127"/><trkpt lat="37.51" lon="127"/></trkseg></trk>\
            <wpt lat="37.5" lon="127"><name>w\u{1B}</name></wpt></gpx>
            """
        let activity = try ActivityReader.read(from: MemoryByteStream(Array(gpx.utf8)))
        #expect(activity.metadata.name == "a\u{FFFD}b \u{FFFD}]0;pwned\u{FFFD}")
        #expect(activity.metadata.description == "first\nsecond\u{FFFD}2J")
        #expect(activity.metadata.creator == "x\u{FFFD}y")
        #expect(activity.tracks.first?.name == "t rack")
        #expect(activity.waypoints.first?.name == "w\u{FFFD}")
    }
}
