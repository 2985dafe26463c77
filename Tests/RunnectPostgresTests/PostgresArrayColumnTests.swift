import PostgresNIO
import Testing

@testable import RunnectPostgres

@Suite struct PostgresArrayColumnTests {
    /// PostgreSQL's binary form of `elements` (``PostgresArrayParameter`` writes it as the
    /// server does: the server reads it back in the copy's tests).
    static func encoded<Element: PostgresArrayEncodable>(_ elements: [Element?]) throws -> ByteBuffer {
        var buffer = ByteBuffer()
        try PostgresArrayParameter(elements).encode(into: &buffer, context: .default)
        return buffer
    }

    static func decoded<Element: PostgresArrayColumnElement>(
        _ buffer: ByteBuffer, as: Element.Type
    ) throws -> [Element?] {
        var buffer = buffer
        let column = try PostgresArrayColumn<Element>(
            from: &buffer, type: .int8Array, format: .binary, context: .default)
        #expect(buffer.readableBytes == 0)
        return column.elements
    }

    @Test func everyElementTypeReadsBackWithItsNulls() throws {
        let ids: [Int64?] = [1, nil, Int64.max, Int64.min, -7]
        #expect(try Self.decoded(Self.encoded(ids), as: Int64.self) == ids)
        let counts: [Int32?] = [nil, 0, 3, Int32.min]
        #expect(try Self.decoded(Self.encoded(counts), as: Int32.self) == counts)
        let distances: [Double?] = [0, -0.5, 42_195.25, nil, .infinity]
        #expect(try Self.decoded(Self.encoded(distances), as: Double.self) == distances)
        let titles: [String?] = ["서울 강변 야경", nil, "", "ㅇㄹㅍ 10k", "\u{0}x"]
        #expect(try Self.decoded(Self.encoded(titles), as: String.self) == titles)
    }

    @Test func anEmptyArrayHasNoElements() throws {
        #expect(try Self.decoded(Self.encoded([Int64?]()), as: Int64.self).isEmpty)
    }

    @Test func anotherElementTypeIsRefused() throws {
        let buffer = try Self.encoded([Int32(1), 2])
        #expect(throws: PostgresDecodingError.Code.typeMismatch) { try Self.decoded(buffer, as: Int64.self) }
    }

    /// Cut anywhere, the array is refused, never read past its end; a count of elements its
    /// bytes cannot hold is refused before anything is allocated for them.
    @Test func aCutOrInflatedArrayIsRefused() throws {
        let whole = try Self.encoded([Int64(5), nil, 7])
        for length in 0..<whole.readableBytes {
            let cut = whole.getSlice(at: 0, length: length)!
            #expect(throws: PostgresDecodingError.Code.self) { try Self.decoded(cut, as: Int64.self) }
        }
        var inflated = whole
        inflated.setInteger(Int32.max, at: 12)  // the dimension's length
        #expect(throws: PostgresDecodingError.Code.failure) { try Self.decoded(inflated, as: Int64.self) }
        var wrongLength = try Self.encoded([Int64(5)])
        wrongLength.setInteger(Int32(4), at: 20)  // the element's length: 4 bytes of an int8
        #expect(throws: PostgresDecodingError.Code.failure) { try Self.decoded(wrongLength, as: Int64.self) }
        var twoDimensions = whole
        twoDimensions.setInteger(Int32(2), at: 0)
        #expect(throws: PostgresDecodingError.Code.failure) { try Self.decoded(twoDimensions, as: Int64.self) }
    }
}
