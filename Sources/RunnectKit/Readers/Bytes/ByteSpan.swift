#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A run of bytes inside a scanner's buffer (``XMLScanner``, ``JSONScanner``). Valid only until the
/// scanner's next call.
struct ByteSpan {
    let start: UnsafePointer<UInt8>
    let count: Int

    @inline(__always) subscript(index: Int) -> UInt8 { start[index] }

    /// The part after the last `:` (namespace prefixes are ignored: files bind Garmin's
    /// extension to `gpxtpx:`, `ns3:` or nothing at all, and some never declare the prefix).
    var localName: ByteSpan {
        var i = count - 1
        while i >= 0 {
            if start[i] == UInt8(ascii: ":") { return ByteSpan(start: start + i + 1, count: count - i - 1) }
            i -= 1
        }
        return self
    }

    /// Byte-wise equality with an ASCII literal.
    @inline(__always) func equals(_ literal: StaticString) -> Bool {
        literal.utf8CodeUnitCount == count && memcmp(start, literal.utf8Start, count) == 0
    }

    /// ASCII case-insensitive equality with a lower-case ASCII literal.
    func equalsIgnoringCase(_ literal: StaticString) -> Bool {
        guard literal.utf8CodeUnitCount == count else { return false }
        let other = literal.utf8Start
        for i in 0..<count where start[i] | 0x20 != other[i] { return false }
        return true
    }

    var string: String {
        String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }
}
