import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

@Suite("JSON scanner")
struct JSONScannerTests {
    static func tokens(_ text: String) throws -> [JSONToken] {
        let scanner = JSONScanner(stream: MemoryByteStream(text))
        var tokens: [JSONToken] = []
        while true {
            let token = try scanner.next()
            tokens.append(token)
            if token == .endOfDocument { return tokens }
        }
    }

    @Test func tokensOfADocument() throws {
        #expect(
            try Self.tokens("\u{FEFF} {\"a\": [1, -2.5e1, true, false, null, \"x\"]}\n") == [
                .beginObject, .name, .beginArray, .number(1), .number(-25), .bool(true), .bool(false), .null, .string,
                .endArray, .endObject, .endOfDocument,
            ])
    }

    @Test(
        "what JSONDecoder accepted is accepted",
        arguments: [
            "[1,]", "{\"a\":1,}", "[[],]", "[]", "{}", "[\"\\u00e9\\uD83D\\uDE00\\/\"]", "[-0]", "[1E5]", "[4.9e-324]",
            "[1.7976931348623157e308]",
        ])
    func accepted(_ text: String) throws {
        #expect(try Self.tokens(text).last == .endOfDocument)
        #expect((try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) != nil)
    }

    @Test(
        "what JSONDecoder refused is refused, with the place",
        arguments: [
            ("[,1]", "column 2 (byte 1)"), ("[1,,2]", "column 4 (byte 3)"), ("{,}", "member name"),
            ("[01]", "leading zeros"),
            ("[1.]", "after '.'"), ("[.5]", "expected a value"), ("[+1]", "expected a value"),
            ("[1] x", "after the end"),
            ("[NaN]", "expected a value"), ("[\"\\ud800\"]", "surrogate"), ("[\"a\u{01}b\"]", "control character"),
            ("[\"\\x\"]", "invalid escape"), ("[1e400]", "out of the range"), ("[1e-400]", "out of the range"),
            ("[2.4e-324]", "out of the range"), ("[1 2]", "expected ','"), ("{\"a\" 1}", "expected ':'"),
            ("[tru]", "expected a value"),
            ("[1]\u{0}", "after the end"), ("[1,\n2,\n", "line 3, column 1 (byte 7): unexpected end of file"),
            ("{\"a\":1,,}", "member name"),
            ("[\"\\uzzzz\"]", "hexadecimal"), ("[1]]", "after the end"), ("[[1]", "end of file"),
            ("[\u{0C}1]", "expected a value"),
            ("", "empty"), ("[\"abc", "inside a string"),
        ])
    func refused(_ text: String, _ fragment: String) throws {
        let error = try #require(throws: ReadError.self) { try Self.tokens(text) }
        #expect(error.description.hasPrefix("invalid JSON at line "), "\(error)")
        #expect(error.description.contains(fragment), "\(error)")
        #expect((try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) == nil)
    }

    @Test(
        "invalid UTF-8 in a string is refused",
        arguments: [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] as [[UInt8]])
    func invalidUTF8(_ bytes: [UInt8]) throws {
        let document = Array("[\"".utf8) + bytes + Array("\"]".utf8)
        #expect(throws: ReadError.self) {
            let scanner = JSONScanner(stream: MemoryByteStream(document))
            while try scanner.next() != .endOfDocument {}
        }
        #expect((try? JSONDecoder().decode(JSONValue.self, from: Data(document))) == nil)
    }

    @Test("nesting: 512 levels are read, 513 refused (JSONDecoder's limit)")
    func nesting() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try Self.tokens(ok).count == 1025)
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let error = try #require(throws: ReadError.self) { try Self.tokens(deep) }
        #expect(error.description.contains("nested deeper than 512"), "\(error)")
    }

    @Test("numbers are read back as Double(String) gives them, bit for bit (seeded)")
    func numbers() throws {
        var rng = SplitMix64(seed: 8259)
        for _ in 0..<20_000 {
            var text = rng.chance(1, in: 3) ? "-" : ""
            text +=
                rng.chance(1, in: 4)
                ? "0"
                : String(rng.int(in: 1...9))
                    + String((0..<rng.int(in: 0...20)).map { _ in Character(String(rng.int(in: 0...9))) })
            if rng.chance(2, in: 3) {
                text += "." + String((0..<rng.int(in: 1...25)).map { _ in Character(String(rng.int(in: 0...9))) })
            }
            if rng.chance(1, in: 3) {
                text += (rng.chance(1, in: 2) ? "e" : "E") + rng.pick(["", "+", "-"]) + String(rng.int(in: 0...330))
            }
            let expected = Double(text)!
            let scanner = JSONScanner(stream: MemoryByteStream("[\(text)]"))
            _ = try scanner.next()
            // JSONDecoder refused what overflows and what underflows to zero from a nonzero value.
            if expected.isFinite && (expected != 0 || !Self.mantissaNonZero(text)) {
                let token = try scanner.next()
                #expect(
                    token == .number(expected)
                        && { if case .number(let v) = token { v.bitPattern == expected.bitPattern } else { false } }(),
                    "\(text)")
            } else {
                #expect(throws: ReadError.self, "\(text)") { try scanner.next() }
            }
        }
    }

    static func mantissaNonZero(_ text: String) -> Bool {
        text.prefix { $0 != "e" && $0 != "E" }.contains { ("1"..."9").contains($0) }
    }

    @Test("strings of any length are skipped in a buffer that does not grow; kept ones are bounded")
    func longStrings() throws {
        let long = String(repeating: "ab\\u00e9\\n", count: 2 << 20)  // 16 MiB of text
        let scanner = JSONScanner(
            stream: MemoryByteStream("{\"note\":\"\(long)\",\"n\":\(("1." + String(repeating: "0", count: 20_000)))}"),
            chunkSize: 1 << 16)
        #expect(try scanner.next() == .beginObject)
        #expect(try scanner.next() == .name)
        #expect(try scanner.next() == .string)
        #expect(try scanner.next() == .name)
        #expect(try scanner.next() == .number(Double(("1." + String(repeating: "0", count: 20_000)))!))
        #expect(try scanner.next() == .endObject)
        #expect(try scanner.next() == .endOfDocument)
        #expect(scanner.bufferCapacity == 1 << 16)

        let kept = JSONScanner(stream: MemoryByteStream("[\"\(String(repeating: "x", count: (1 << 20) + 1))\"]"))
        _ = try kept.next()
        _ = try kept.next()
        let error = try #require(throws: ReadError.self) { try kept.readString() }
        #expect(error.description.contains("longer than 1048576 bytes"), "\(error)")
    }
}
