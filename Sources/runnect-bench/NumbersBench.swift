import CFromChars
import Foundation
import RunnectKit

/// `runnect-bench numbers FILE… [--repeat N]`: the coordinate and elevation numbers of GPX/TCX
/// files (`lat="…"`, `lon="…"`, `<ele>…</ele>`, `<LatitudeDegrees>…`, `<LongitudeDegrees>…`,
/// `<AltitudeMeters>…`) parsed by Runnect's `DecimalParser` and by libstdc++'s `std::from_chars`
/// (through the C++ shim), each number one call from Swift as a reader makes it; best of N per
/// parser, and the count of numbers whose two results differ in any bit (must be 0).
func numbersBench(_ arguments: [String]) throws {
    let files = arguments.prefix { !$0.hasPrefix("--") }
    let repeats = repeatCount(arguments, default: 5)
    var text: [UInt8] = []
    var spans: [(start: Int, count: Int)] = []
    for file in files {
        let base = text.count
        text += try [UInt8](Data(contentsOf: URL(fileURLWithPath: String(file))))
        spans += numberSpans(in: text, from: base)
    }
    guard !spans.isEmpty else { usage() }
    var ours = [Double](repeating: .nan, count: spans.count)
    var theirs = [Double](repeating: .nan, count: spans.count)
    var oursBest = Double.infinity
    var theirsBest = Double.infinity
    text.withUnsafeBufferPointer { bytes in
        let base = bytes.baseAddress!
        for _ in 0..<repeats {
            var start = now()
            for (index, span) in spans.enumerated() {
                ours[index] = DecimalParser.parseDouble(base + span.start, count: span.count) ?? .nan
            }
            oursBest = min(oursBest, now() - start)
            start = now()
            base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
                for (index, span) in spans.enumerated() {
                    var value = Double.nan
                    theirs[index] = rk_from_chars_double(chars + span.start, span.count, &value) == 0 ? value : .nan
                }
            }
            theirsBest = min(theirsBest, now() - start)
        }
    }
    let differing = zip(ours, theirs).filter { $0.bitPattern != $1.bitPattern }.count
    let bytes = Double(spans.reduce(0) { $0 + $1.count })
    for (parser, seconds) in [("DecimalParser", oursBest), ("std::from_chars", theirsBest)] {
        emit([
            ("tool", "runnect"), ("work", "numbers"), ("parser", parser), ("numbers", spans.count),
            ("number_bytes", Int(bytes)), ("seconds", seconds), ("ns_per_number", seconds / Double(spans.count) * 1e9),
            ("differing", differing),
        ])
    }
    FileHandle.standardError.write(
        Data(
            String(
                format: "numbers bench: %d numbers; DecimalParser %.1f ns each, "
                    + "std::from_chars %.1f ns (%.2fx); %d differ\n",
                spans.count, oursBest / Double(spans.count) * 1e9, theirsBest / Double(spans.count) * 1e9,
                theirsBest / oursBest, differing
            ).utf8))
}

/// The byte ranges of the numbers in attribute values `lat="…"`/`lon="…"` and in the text of
/// the elevation and position elements, from `base` on.
private func numberSpans(in text: [UInt8], from base: Int) -> [(start: Int, count: Int)] {
    let openers: [(prefix: [UInt8], close: UInt8)] = [
        (Array("lat=\"".utf8), UInt8(ascii: "\"")), (Array("lon=\"".utf8), UInt8(ascii: "\"")),
        (Array("<ele>".utf8), UInt8(ascii: "<")), (Array("<LatitudeDegrees>".utf8), UInt8(ascii: "<")),
        (Array("<LongitudeDegrees>".utf8), UInt8(ascii: "<")), (Array("<AltitudeMeters>".utf8), UInt8(ascii: "<")),
    ]
    var spans: [(Int, Int)] = []
    var index = base
    while index < text.count {
        if text[index] == UInt8(ascii: "l") || text[index] == UInt8(ascii: "<") {
            for opener in openers where text[index...].starts(with: opener.prefix) {
                let start = index + opener.prefix.count
                var end = start
                while end < text.count && text[end] != opener.close { end += 1 }
                spans.append((start, end - start))
                index = end
                break
            }
        }
        index += 1
    }
    return spans
}
