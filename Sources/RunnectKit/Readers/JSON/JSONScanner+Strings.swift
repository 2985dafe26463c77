extension JSONScanner {
    func openString() {
        stringStart = pos
        pos += 1
        pendingString = true
    }

    /// The pending name if it is at most `maxBytes` long (decoded), else nil (it is skipped). The
    /// span is valid until the next call.
    func readName(maxBytes: Int = 64) throws -> ByteSpan? {
        let complete = try scanString(keeping: maxBytes)
        return complete ? ByteSpan(start: scratch, count: scratchCount) : nil
    }

    /// The pending name or string, decoded.
    /// - Throws: ``ReadError/invalidContent(_:)`` when it is longer than the scanner's limit.
    func readString() throws -> String {
        let start = stringStart
        let offset = window.base.byteOffset
        guard try scanString(keeping: maxStringBytes) else {
            let message = "a string longer than \(maxStringBytes) bytes"
            if offset == window.base.byteOffset { throw invalid(message, at: start) }
            throw ReadError.invalidContent("invalid JSON at byte \(offset + start): \(message)")
        }
        return String(decoding: UnsafeBufferPointer(start: scratch, count: scratchCount), as: UTF8.self)
    }

    @inline(__always) private func keep(_ byte: UInt8, _ limit: Int) {
        guard scratchCount < limit else {
            scratchCount = limit + 1  // marks "longer than kept"
            return
        }
        if scratchCount == scratchCapacity {
            scratch = scratch.moved(count: scratchCount, toCapacity: scratchCapacity * 2)
            scratchCapacity *= 2
        }
        scratch[scratchCount] = byte
        scratchCount += 1
    }

    /// Reads the pending string's body to its closing quote, checking escapes and UTF-8 and
    /// keeping up to `limit` decoded bytes in `scratch`. Returns whether all of it was kept.
    @discardableResult
    func scanString(keeping limit: Int) throws -> Bool {
        pendingString = false
        scratchCount = 0
        while true {
            if pos >= end, try !refill(keeping: pos) {
                throw invalid("unexpected end of file inside a string", at: end)
            }
            let c = buffer[pos]
            if c == UInt8(ascii: "\"") {
                pos += 1
                return scratchCount <= limit
            }
            if c == UInt8(ascii: "\\") {
                try escape(limit)
            } else if c < 0x20 {
                throw invalid(
                    "control character U+00\(c < 0x10 ? "0" : "")\(String(c, radix: 16, uppercase: true)) inside a string (write it as an escape)"
                )
            } else if c < 0x80 {
                keep(c, limit)
                pos += 1
            } else {
                try utf8Sequence(c, limit)
            }
        }
    }

    private func escape(_ limit: Int) throws {
        guard try available(2) else { throw invalid("unexpected end of file inside a string", at: end) }
        let simple: UInt8
        switch buffer[pos + 1] {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xDC00...0xDFFF).contains(scalar) {
                throw invalid("a lone low surrogate \\u\(String(scalar, radix: 16))")
            }
            if (0xD800...0xDBFF).contains(scalar) {
                guard try available(2), buffer[pos] == UInt8(ascii: "\\"), buffer[pos + 1] == UInt8(ascii: "u") else {
                    throw invalid("a high surrogate \\u\(String(scalar, radix: 16)) not followed by a low one")
                }
                let low = try hexQuad()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw invalid("a high surrogate \\u\(String(scalar, radix: 16)) not followed by a low one")
                }
                scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
            }
            for byte in String(Character(Unicode.Scalar(scalar)!)).utf8 { keep(byte, limit) }
            return
        default:
            throw invalid("invalid escape \\\(String(decoding: [buffer[pos + 1]], as: UTF8.self))")
        }
        keep(simple, limit)
        pos += 2
    }

    /// `\uXXXX` at `pos`: its value; `pos` moves past it.
    private func hexQuad() throws -> UInt32 {
        guard try available(6) else { throw invalid("unexpected end of file inside a string", at: end) }
        var value: UInt32 = 0
        for i in 2..<6 {
            let c = buffer[pos + i]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - 0x30
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - 0x57
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - 0x37
            default: throw invalid("\\u needs four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
        }
        pos += 6
        return value
    }

    /// One UTF-8 encoded scalar starting with `lead` (RFC 3629: no overlong forms, no surrogates,
    /// nothing above U+10FFFF).
    private func utf8Sequence(_ lead: UInt8, _ limit: Int) throws {
        let count: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF  // the second byte's range
        switch lead {
        case 0xC2...0xDF: count = 2
        case 0xE0:
            count = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: count = 3
        case 0xED:
            count = 3
            high = 0x9F
        case 0xF0:
            count = 4
            low = 0x90
        case 0xF1...0xF3: count = 4
        case 0xF4:
            count = 4
            high = 0x8F
        default: throw invalid("invalid UTF-8 (\(describe(lead))) inside a string")
        }
        guard try available(count) else { throw invalid("unexpected end of file inside a string", at: end) }
        for i in 1..<count {
            let byte = buffer[pos + i]
            guard byte >= (i == 1 ? low : 0x80), byte <= (i == 1 ? high : 0xBF) else {
                throw invalid("invalid UTF-8 (\(describe(lead)) followed by \(describe(byte))) inside a string")
            }
        }
        for i in 0..<count { keep(buffer[pos + i], limit) }
        pos += count
    }
}
