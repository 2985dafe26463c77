import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

@Suite("Tapped points JSON, streamed")
struct TappedPointsJSONStreamingTests {
    /// Seeded documents of every accepted shape, with members in any order, repeated names,
    /// unknown members, non-number values, trailing commas and odd number forms.
    struct DocumentGenerator {
        var rng: SplitMix64

        mutating func space() -> String { rng.pick(["", "", " ", "\n  ", "\t", "\r\n"]) }

        mutating func number(_ value: Double) -> String {
            switch rng.int(in: 0...5) {
            case 0: return String(format: "%.7f", value)
            case 1: return String(value)
            case 2: return String(format: "%.12e", value)
            case 3: return String(format: "%.20f", value)
            case 4: return String(format: "%.3E", value)
            default: return String(format: "%.17g", value).replacingOccurrences(of: "e+", with: "e")
            }
        }

        mutating func junk(depth: Int = 0) -> String {
            switch rng.int(in: 0...(depth > 2 ? 3 : 5)) {
            case 0: return "\"na\\\"me \\u00e9 한강 \\uD83C\\uDFC3\""
            case 1: return rng.pick(["true", "false", "null", "-0", "1e5"])
            case 2: return "\"\""
            case 3: return String(rng.int(in: -99...99))
            case 4: return "[" + junk(depth: depth + 1) + "," + junk(depth: depth + 1) + "]"
            default: return "{\"coordinates\":" + junk(depth: depth + 1) + ",\"type\":\"LineString\"}"
            }
        }

        mutating func value(_ v: Double) -> String { rng.chance(1, in: 40) ? junk() : number(v) }

        mutating func object(_ members: [(String, String)]) -> String {
            var members = members
            if rng.chance(1, in: 3) { members.append(("extra", junk())) }
            if rng.chance(1, in: 8), let first = members.first { members.append((first.0, junk())) }  // repeated name
            members.shuffle(using: &rng)
            let comma = rng.chance(1, in: 10) ? "," : ""
            return "{" + members.map { "\(space())\"\($0.0)\"\(space()):\(space())\($0.1)" }.joined(separator: ",")
                + comma + space() + "}"
        }

        mutating func array(_ elements: [String]) -> String {
            "[" + elements.map { space() + $0 }.joined(separator: ",") + (rng.chance(1, in: 10) ? "," : "") + space()
                + "]"
        }

        mutating func latitude() -> Double { rng.chance(1, in: 200) ? 91 : rng.double(in: 37.4...37.7) }
        mutating func longitude() -> Double { rng.double(in: 126.8...127.2) }

        mutating func position() -> String {
            var parts = [value(longitude()), value(latitude())]
            if rng.chance(1, in: 3) { parts.append(value(rng.double(in: 0...300))) }
            if rng.chance(1, in: 100) { parts.append("4") }
            return array(parts)
        }

        mutating func geometry() -> String {
            switch rng.int(in: 0...9) {
            case 0: return object([("type", "\"Point\""), ("coordinates", position())])
            case 1:
                return object([
                    ("type", "\"MultiLineString\""),
                    (
                        "coordinates",
                        array(
                            (0..<rng.int(in: 0...3)).map { _ in array((0..<rng.int(in: 0...4)).map { _ in position() })
                            })
                    ),
                ])
            case 2: return rng.pick(["null", "{}", object([("type", "\"Polygon\""), ("coordinates", "[]")])])
            default:
                return object([
                    ("type", "\"LineString\""),
                    ("coordinates", array((0..<rng.int(in: 0...6)).map { _ in position() })),
                ])
            }
        }

        mutating func feature() -> String {
            var properties: [(String, String)] = []
            for key in ["title", "name", "description", "desc"] where rng.chance(1, in: 3) {
                properties.append((key, rng.chance(1, in: 5) ? junk() : "\"\(key) \(rng.int(in: 0...9)) \\\"q\\\"\""))
            }
            return object([
                ("type", "\"Feature\""), ("properties", rng.chance(1, in: 8) ? junk() : object(properties)),
                ("geometry", geometry()),
            ])
        }

        mutating func document() -> String {
            switch rng.int(in: 0...5) {
            case 0:
                return array(
                    (0..<rng.int(in: 0...8)).map { _ in
                        object([
                            (rng.pick(["latitude", "lat"]), value(latitude())),
                            (rng.pick(["longitude", "lon", "lng"]), value(longitude())),
                        ])
                    })
            case 1:
                return array(
                    (0..<rng.int(in: 0...8)).map { _ in
                        rng.chance(1, in: 50)
                            ? array([value(latitude())]) : array([value(latitude()), value(longitude())])
                    })
            case 2: return geometry()
            case 3: return feature()
            default:
                return object([
                    ("type", "\"FeatureCollection\""),
                    (
                        "features",
                        array((0..<rng.int(in: 0...4)).map { _ in rng.chance(1, in: 10) ? junk() : feature() })
                    ),
                ])
            }
        }
    }

    static func outcome(_ read: () throws -> Activity) -> Result<Activity, ReadError> {
        do { return .success(try read()) } catch { return .failure(error as! ReadError) }
    }

    @Test(
        "the streaming reader agrees with the JSONDecoder one on seeded documents: same activity bit for bit, or the same error"
    )
    func agreesWithTheTreeReader() throws {
        var generator = DocumentGenerator(rng: SplitMix64(seed: 7946))
        var accepted = 0
        for _ in 0..<3_000 {
            let document = generator.document()
            let bytes = Array(document.utf8)
            let streamed = Self.outcome { try TappedPointsReader.read(json: bytes) }
            let tree = Self.outcome { try LegacyTappedPointsJSONReader.read(json: bytes) }
            switch (streamed, tree) {
            case (.success(let new), .success(let old)):
                accepted += 1
                #expect(new == old, "\(document)")
                let bits = { (a: Activity) in
                    a.routes.flatMap { $0.points.map { [$0.latitude.bitPattern, $0.longitude.bitPattern] } }
                }
                #expect(bits(new) == bits(old), "\(document)")
            case (.failure(let new), .failure(let old)):
                if !old.description.hasPrefix("invalid JSON") {
                    #expect(new == old, "\(document)")
                }
            default:
                Issue.record("streamed \(streamed), tree \(tree): \(document)")
            }
        }
        #expect(accepted > 500)
    }

    @Test("a big generated file (seeded) reads back every coordinate as Double(String) gives it")
    func bigFile() throws {
        var rng = SplitMix64(seed: 64)
        var text = "{\"type\":\"Feature\",\"properties\":{\"name\":\"big\"},\"geometry\":{\"coordinates\":[\n"
        var expected: [(Double, Double)] = []
        for i in 0..<100_000 {
            let lon = String(format: "%.\(rng.int(in: 5...15))f", rng.double(in: 126...128))
            let lat = String(format: "%.\(rng.int(in: 5...15))f", rng.double(in: 37...38))
            expected.append((Double(lat)!, Double(lon)!))
            text += (i == 0 ? "" : ",\n") + "[\(lon),\(lat)]"
        }
        text += "],\"type\":\"LineString\"}}"  // type after coordinates
        let activity = try ActivityReader.read(from: MemoryByteStream(text))
        #expect(activity.metadata.name == "big")
        let points = try #require(activity.routes.first?.points)
        #expect(points.count == expected.count)
        #expect(
            zip(points, expected).allSatisfy {
                $0.latitude.bitPattern == $1.0.bitPattern && $0.longitude.bitPattern == $1.1.bitPattern
            })
    }

    @Test("a document cut anywhere is an error, never a crash")
    func truncated() throws {
        let sample =
            "\u{FEFF}{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{\"title\":\"잠실 \\uD83C\\uDFC3\"},\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[127.06,37.51,12.5],[127.0621,37.5112],[1.27e2,3.7e1]]}},{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[127.0,37.5]}}]}"
        let bytes = Array(sample.utf8)
        _ = try TappedPointsReader.read(json: bytes)
        for cut in 0..<bytes.count {
            #expect(throws: ReadError.self, "cut at \(cut)") { try TappedPointsReader.read(json: Array(bytes[..<cut])) }
        }
    }

    // The tree reader read the whole input (up to 64 MiB) before looking at it: these fail there.

    @Test("an error near the start of an endless document is reported at its place after reading one chunk")
    func endlessDocumentWithAnEarlyError() throws {
        let stream = EndlessByteStream(prefix: "[[37.51,127.06],[37.52,127.07] x", filler: "      ")
        let error = try #require(throws: ReadError.self) { try ActivityReader.read(from: stream) }
        #expect(error.description.contains("(byte 31): expected ',' or ']', found 'x'"), "\(error)")
        #expect(stream.served <= 1 << 20)
    }

    @Test("a nesting bomb is refused at depth 513 after reading one chunk")
    func nestingBomb() throws {
        let stream = EndlessByteStream(prefix: "", filler: "[")
        let error = try #require(throws: ReadError.self) { try ActivityReader.read(from: stream) }
        #expect(error.description.contains("nested deeper than 512"), "\(error)")
        #expect(stream.served <= 1 << 20)
    }

    @Test("a huge unknown string is skipped in a bounded buffer; a huge name is refused with its byte")
    func hugeStrings() throws {
        let filler = String(repeating: "x", count: 20 << 20)
        let skipped = "{\"type\":\"LineString\",\"note\":\"\(filler)\",\"coordinates\":[[127.06,37.51],[127.07,37.52]]}"
        #expect(try TappedPointsReader.read(json: Array(skipped.utf8)).routes.first?.points.count == 2)
        let kept = "{\"type\":\"Feature\",\"properties\":{\"name\":\"\(filler)\"},\"geometry\":null}"
        let error = try #require(throws: ReadError.self) { try TappedPointsReader.read(json: Array(kept.utf8)) }
        #expect(error.description.contains("byte 39: a string longer than 1048576 bytes"), "\(error)")
    }
}
