#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Byte search and byte classes: the scanner's inner loops.
extension XMLScanner {
    /// The next `byte` at or after `index`, eight bytes at a time (runs in GPS files are short: a
    /// number, an indent; too short for a `memchr` call to pay off).
    @inline(__always) func find(_ byte: UInt8, from index: Int) -> Int? {
        XMLScanner.find(byte, in: buffer, from: index, to: end)
    }

    @inline(__always) static func find(
        _ byte: UInt8, in buffer: UnsafeMutablePointer<UInt8>,
        from index: Int, to end: Int
    ) -> Int? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let pattern = UInt64(byte) &* ones
        var i = index
        let raw = UnsafeRawPointer(buffer)
        while i + 8 <= end {
            // A zero byte in word ⇔ a match; the lowest flagged byte is always a true match.
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) ^ pattern
            let found = (word &- ones) & ~word & 0x8080_8080_8080_8080
            if found != 0 { return i + found.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < end {
            if buffer[i] == byte { return i }
            i += 1
        }
        return nil
    }

    func find(_ literal: StaticString, from index: Int) -> Int? {
        let n = literal.utf8CodeUnitCount
        var i = index
        while let hit = find(literal.utf8Start[0], from: i) {
            if hit + n > end { return nil }
            if memcmp(buffer + hit, literal.utf8Start, n) == 0 { return hit }
            i = hit + 1
        }
        return nil
    }

    func starts(with literal: StaticString, at index: Int) -> Bool {
        let n = literal.utf8CodeUnitCount
        return index + n <= end && memcmp(buffer + index, literal.utf8Start, n) == 0
    }

    func isWhitespace(from start: Int, to stop: Int) -> Bool {
        for i in start..<stop {
            switch buffer[i] {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            default: return false
            }
        }
        return true
    }

    // Byte classes, looked up in a table the scanner holds (a register away in its loops).
    static let nameStartClass: UInt8 = 1, nameClass: UInt8 = 2, spaceClass: UInt8 = 4

    /// The scanner's table of byte classes: 256 entries, to be deallocated by the caller.
    static func makeByteClasses() -> UnsafeMutablePointer<UInt8> {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for c in 0..<256 {
            let byte = UInt8(c)
            let letter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let start = letter || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte >= 0x80
            let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            let name = start || digit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            let space = byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
            table[c] = (start ? nameStartClass : 0) | (name ? nameClass : 0) | (space ? spaceClass : 0)
        }
        return table
    }

    @inline(__always) func isNameStart(_ c: UInt8) -> Bool { byteClasses[Int(c)] & Self.nameStartClass != 0 }
    @inline(__always) func isNameByte(_ c: UInt8) -> Bool { byteClasses[Int(c)] & Self.nameClass != 0 }
    @inline(__always) func isSpace(_ c: UInt8) -> Bool { byteClasses[Int(c)] & Self.spaceClass != 0 }
}
