#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The window onto a ``ByteStream`` that a scanner (``XMLScanner``, ``JSONScanner``) reads: one
/// buffer, filled from the stream a chunk at a time, that drops the bytes the scanner is done with
/// and grows only when one token fills it, so memory is bounded by the longest token, not by the
/// document.
///
/// The scanner keeps its own indexes into ``bytes``; each refill moves the bytes it keeps to the
/// front, and the scanner shifts its indexes with them. ``base`` counts what was dropped, so that
/// errors can name a line and column anywhere in the document.
struct ScanBuffer: ~Copyable {
    private let stream: ByteStream
    /// The buffered bytes: `bytes[0..<end]` are valid.
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    private(set) var end = 0
    /// Whether the stream has ended: nothing more will be read.
    private(set) var atEOF = false
    /// Where `bytes[0]` sits in the document.
    private(set) var base = TextPosition()
    /// Whether ``location(ofIndex:)`` is kept right (lines are counted as bytes are dropped);
    /// when false, only ``base``'s byte offset is.
    var tracksLines = true
    private let maxCapacity: Int
    private let maxDocumentBytes: Int

    /// - Parameters:
    ///   - chunkSize: the buffer's first capacity, and the most read at a time until it grows.
    ///   - maxCapacity: the buffer never grows past this: a token it cannot hold is
    ///     ``ReadError/tooLarge(limitBytes:)``.
    ///   - maxDocumentBytes: the most bytes read from the stream before
    ///     ``ReadError/tooLarge(limitBytes:)``.
    init(stream: ByteStream, chunkSize: Int, maxCapacity: Int = .max, maxDocumentBytes: Int = .max) {
        self.stream = stream
        self.capacity = chunkSize
        self.maxCapacity = maxCapacity
        self.maxDocumentBytes = maxDocumentBytes
        bytes = .allocate(capacity: chunkSize)
    }

    deinit {
        bytes.deallocate()
    }

    /// Drops the bytes before `keep`, moving the rest to the front, and reads more after them,
    /// growing the buffer when the kept bytes fill it.
    ///
    /// Indexes into ``bytes`` the caller holds shift down by `keep`, whatever it returns.
    /// - Returns: false at the end of the stream.
    mutating func refill(keeping keep: Int) throws -> Bool {
        if keep > 0 {
            if tracksLines { base.advance(over: bytes, count: keep) } else { base.advanceBytes(keep) }
            if end > keep { memmove(bytes, bytes + keep, end - keep) }
            end -= keep
        }
        if atEOF { return false }
        if end == capacity {
            guard capacity < maxCapacity else { throw ReadError.tooLarge(limitBytes: maxCapacity) }
            bytes = bytes.moved(count: end, toCapacity: capacity * 2)
            capacity *= 2
        }
        let n = try stream.read(into: UnsafeMutableRawBufferPointer(start: bytes + end, count: capacity - end))
        if n == 0 {
            atEOF = true
            return false
        }
        guard base.byteOffset + end + n <= maxDocumentBytes else {
            throw ReadError.tooLarge(limitBytes: maxDocumentBytes)
        }
        end += n
        return true
    }

    /// Line (1-based) and column (1-based, in characters) of `bytes[index]`.
    func location(ofIndex index: Int) -> (line: Int, column: Int) {
        base.location(ofIndex: index, in: bytes, end: end)
    }
}
