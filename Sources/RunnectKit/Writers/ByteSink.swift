import Foundation

/// Where a writer's bytes go, a chunk at a time: a file (``FileDescriptorSink``, or
/// ``OutputFile/write(to:_:)`` for an atomic file), or memory (`Data`).
///
/// Writers that stream (``GPXWriter``, ``TCXWriter``, ``FITWriter``) hand their output over in
/// chunks of at most ``ByteSink/chunkBytes`` bytes, so the memory they use does not grow with
/// the length of the text.
public protocol ByteSink {
    /// Takes the next bytes of the output.
    /// - Throws: The sink's own error (a full disk, a closed pipe); the writer stops there.
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws
}

extension ByteSink {
    /// The largest chunk a streaming writer hands over at once: 64 KiB.
    public static var chunkBytes: Int { 1 << 16 }

    /// Writes all of `data`.
    /// - Throws: The sink's own error.
    public mutating func write(_ data: Data) throws {
        try data.withUnsafeBytes { try write($0) }
    }
}

/// Memory as a sink: the bytes are appended.
extension Data: ByteSink {
    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        append(contentsOf: bytes)
    }
}

/// Counts the bytes that pass through it to another sink.
///
/// ```swift
/// var sink = CountingSink(FileDescriptorSink.standardOutput)
/// try FITWriter().write(activity, to: &sink)
/// print(sink.count, "bytes")
/// ```
public struct CountingSink<Base: ByteSink>: ByteSink {
    /// The sink the bytes go on to.
    public var base: Base
    /// Bytes passed on so far.
    public private(set) var count = 0

    /// A counter in front of `base`.
    public init(_ base: Base) {
        self.base = base
    }

    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        try base.write(bytes)
        count += bytes.count
    }
}

/// A sink that keeps nothing: for measuring an output before writing it.
struct DiscardingSink: ByteSink {
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {}
}
