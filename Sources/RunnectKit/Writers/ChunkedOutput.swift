/// A writer's output on its way to a ``ByteSink``: bytes gather in a buffer and go to the sink in
/// chunks of ``ByteSink/chunkBytes``, so the whole text never sits in memory.
struct ChunkedOutput<Sink: ByteSink> {
    var sink: Sink
    private var buffer: [UInt8] = []
    private let limit = Sink.chunkBytes

    init(_ sink: Sink) {
        self.sink = sink
        buffer.reserveCapacity(limit)
    }

    /// Appends text; hands a full chunk to the sink.
    @inline(__always)
    mutating func append(_ text: String) throws {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
        if buffer.count >= limit { try flush() }
    }

    /// Appends one byte; hands a full chunk to the sink.
    @inline(__always)
    mutating func append(byte: UInt8) throws {
        buffer.append(byte)
        if buffer.count >= limit { try flush() }
    }

    /// Appends bytes; hands a full chunk to the sink.
    @inline(__always)
    mutating func append(_ bytes: some Sequence<UInt8>) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= limit { try flush() }
    }

    /// Appends a finite number as ``XMLText/decimal(_:)`` writes it, without a `String` of its
    /// own in the common case (a description without exponent).
    @inline(__always)
    mutating func append(decimal value: Double) throws {
        let text = value.description
        if text.utf8.contains(UInt8(ascii: "e")) {
            try append(XMLText.decimal(value))
        } else {
            try append(text)
        }
    }

    /// Hands what is buffered to the sink, at most ``ByteSink/chunkBytes`` at a time.
    mutating func flush() throws {
        var start = 0
        while start < buffer.count {
            let end = min(start + limit, buffer.count)
            try buffer.withUnsafeBytes { try sink.write(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
            start = end
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
