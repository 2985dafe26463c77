import Testing

@testable import RunnectKit

/// The scanners' window onto a stream: what a refill keeps, where it grows, its limits, and line
/// and column numbers that do not move when the bytes before them are dropped.
@Suite("Scan buffer")
struct ScanBufferTests {
    private func text(_ window: borrowing ScanBuffer, from start: Int = 0) -> String {
        String(decoding: UnsafeBufferPointer(start: window.bytes + start, count: window.end - start), as: UTF8.self)
    }

    @Test("a refill keeps the bytes from `keep` on, at the front, and reads a chunk after them")
    func refillKeeps() throws {
        var window = ScanBuffer(stream: MemoryByteStream("abcdefghij"), chunkSize: 4)
        #expect(try window.refill(keeping: 0))
        #expect(text(window) == "abcd")
        #expect(try window.refill(keeping: 3))
        #expect(text(window) == "defg")
        #expect(window.base.byteOffset == 3)
        #expect(window.capacity == 4)
    }

    @Test("the end of the stream: false, and the bytes before `keep` are dropped all the same")
    func endOfStream() throws {
        var window = ScanBuffer(stream: MemoryByteStream("abc"), chunkSize: 8)
        #expect(try window.refill(keeping: 0))
        #expect(try !window.refill(keeping: 0))
        #expect(window.atEOF == true)
        #expect(try !window.refill(keeping: 2))
        #expect(text(window) == "c")
        #expect(window.base.byteOffset == 2)
    }

    @Test("a full buffer doubles, up to its limit")
    func growth() throws {
        var window = ScanBuffer(
            stream: MemoryByteStream(String(repeating: "x", count: 64)), chunkSize: 8, maxCapacity: 16)
        #expect(try window.refill(keeping: 0))
        #expect(try window.refill(keeping: 0))
        #expect(window.capacity == 16)
        #expect(window.end == 16)
        #expect(throws: ReadError.tooLarge(limitBytes: 16)) { try window.refill(keeping: 0) }
    }

    @Test("no more than the document limit is read")
    func documentLimit() throws {
        var window = ScanBuffer(stream: MemoryByteStream("0123456789"), chunkSize: 4, maxDocumentBytes: 6)
        #expect(try window.refill(keeping: 0))
        #expect(throws: ReadError.tooLarge(limitBytes: 6)) { try window.refill(keeping: 4) }
    }

    @Test("line and column of a byte are the same before and after the bytes before it are dropped")
    func locations() throws {
        var window = ScanBuffer(stream: MemoryByteStream("ab\ncé\nfg"), chunkSize: 64)
        #expect(try window.refill(keeping: 0))
        let index = 6  // the "\n" after "cé" (é is two bytes)
        let before = window.location(ofIndex: index)
        #expect(before.line == 2 && before.column == 3)
        #expect(try !window.refill(keeping: 4))  // drops "ab\nc": the end of the stream
        #expect(window.location(ofIndex: index - 4) == before)
        #expect(window.location(ofIndex: window.end).line == 3)
    }
}
