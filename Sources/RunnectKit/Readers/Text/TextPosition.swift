#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the first byte of a scanner's buffer sits in the document: lines and characters before
/// it, and its byte offset. Scanners drop the bytes they are done with; this keeps the count, so
/// that errors can name a line and column (and a byte) anywhere in a file of any size.
struct TextPosition {
    /// Bytes of the document before `buffer[0]`.
    private(set) var byteOffset = 0
    private var linesBefore = 0
    private var columnCharacters = 0  // characters between the last newline and buffer[0]

    /// Accounts for the first `count` bytes of `buffer`, which the scanner is about to drop.
    mutating func advance(over buffer: UnsafePointer<UInt8>, count: Int) {
        var lastNewline = -1
        var p = buffer
        let stop = buffer + count
        while let hit = memchr(p, 0x0A, stop - p) {
            let q = hit.assumingMemoryBound(to: UInt8.self)
            linesBefore += 1
            lastNewline = buffer.distance(to: q)
            p = UnsafePointer(q) + 1
        }
        if lastNewline >= 0 { columnCharacters = 0 }
        for i in (lastNewline + 1)..<count where buffer[i] & 0xC0 != 0x80 { columnCharacters += 1 }
        byteOffset += count
    }

    /// Line (1-based) and column (1-based, in characters) of `buffer[index]`, `end` bytes being
    /// valid.
    /// Moves past `count` bytes counting only bytes, not lines: for a scanner whose errors are
    /// never shown (a part of a split read), after which ``location(ofIndex:in:end:)`` is wrong.
    mutating func advanceBytes(_ count: Int) {
        byteOffset += count
    }

    func location(ofIndex index: Int, in buffer: UnsafePointer<UInt8>, end: Int) -> (line: Int, column: Int) {
        let limit = min(max(index, 0), end)
        var line = linesBefore + 1
        var lastNewline = -1
        for i in 0..<limit where buffer[i] == 0x0A {
            line += 1
            lastNewline = i
        }
        var column = lastNewline < 0 ? columnCharacters + 1 : 1
        for i in (lastNewline + 1)..<max(limit, lastNewline + 1) where buffer[i] & 0xC0 != 0x80 {
            column += 1
        }
        return (line, column)
    }
}
