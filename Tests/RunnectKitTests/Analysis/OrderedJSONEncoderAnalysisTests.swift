import Foundation
import Testing
@testable import RunnectKit

@Suite("Analysis: OrderedJSONEncoder")
struct OrderedJSONEncoderAnalysisTests {
    private struct Wrapper: Encodable {
        let inner: Bounds
        enum HeadKeys: String, CodingKey { case zulu, alpha }
        enum TailKeys: String, CodingKey { case mike }
        func encode(to encoder: Encoder) throws {
            var head = encoder.container(keyedBy: HeadKeys.self)
            try head.encode("z", forKey: .zulu)
            try head.encode(nil as Int?, forKey: .alpha)
            try inner.encode(to: encoder)
            var tail = encoder.container(keyedBy: TailKeys.self)
            try tail.encode([1.5, 2, -0.25], forKey: .mike)
        }
    }

    @Test("Keys in encoding order, containers at one level merged, numbers without .0")
    func order() throws {
        let bounds = Bounds(minLatitude: -16.8, minLongitude: 179.99, maxLatitude: 1, maxLongitude: -179.99)
        let text = try OrderedJSONEncoder().encodeToString(Wrapper(inner: bounds))
        #expect(text == #"{"zulu":"z","alpha":null,"min_lat":-16.8,"min_lon":179.99,"max_lat":1,"max_lon":-179.99,"mike":[1.5,2,-0.25]}"#)
    }

    @Test("Strings are escaped; slashes and non-ASCII are not")
    func strings() throws {
        let text = try OrderedJSONEncoder().encodeToString(["a\"b\\c\nd\u{01}/é"])
        #expect(text == #"["a\"b\\c\nd\u0001/é"]"#)
        #expect(try JSONDecoder().decode([String].self, from: Data(text.utf8)) == ["a\"b\\c\nd\u{01}/é"])
    }

    @Test("Primitives at the top level, nested arrays, Bool and Int")
    func primitives() throws {
        let encoder = OrderedJSONEncoder()
        #expect(try encoder.encodeToString(42) == "42")
        #expect(try encoder.encodeToString(true) == "true")
        #expect(try encoder.encodeToString([[1], [], [2, 3]]) == "[[1],[],[2,3]]")
        #expect(try encoder.encodeToString(1e-5) == "1e-05")
        #expect(try encoder.encodeToString(Optional<Double>.none) == "null")
    }

    @Test("Non-finite numbers throw")
    func nonFinite() {
        #expect(throws: EncodingError.self) { try OrderedJSONEncoder().encodeToString([Double.nan]) }
        #expect(throws: EncodingError.self) { try OrderedJSONEncoder().encodeToString(Double.infinity) }
    }
}
