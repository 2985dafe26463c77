#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A streaming, pull-style JSON (RFC 8259) tokenizer over a ``ByteStream``: memory is bounded by
/// its limits, never by the document.
///
/// It checks the grammar as it goes (the caller cannot be handed a document that is not JSON)
/// and accepts what Foundation's `JSONDecoder` accepts, which Runnect read tapped points with
/// before: one trailing comma in an array or object, a UTF-8 byte order mark. Strings are decoded
/// (escapes, surrogate pairs) only when the caller asks for them, into a buffer of their own, and
/// skipped as a stream otherwise, so a string of any length costs no memory unless it is kept.
/// Numbers go through ``DecimalParser`` (correctly rounded, the same bits as `JSONDecoder`).
///
/// Errors are ``ReadError/invalidContent(_:)`` naming the line, column and byte offset:
/// `invalid JSON at line 3, column 7 (byte 52): expected ',' or ']'`.
final class JSONScanner {
    /// Deepest nesting of arrays and objects accepted (`JSONDecoder`'s limit too).
    static let defaultMaxDepth = 512
    /// Longest string the caller may keep (``readString()``); longer ones can still be skipped.
    static let defaultMaxStringBytes = 1 << 20
    /// Longest number accepted (a number is parsed from one run of the buffer).
    static let maxNumberBytes = 1 << 16

    private let stream: ByteStream
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var pos = 0
    private var end = 0
    private var atEOF = false
    // Unchecked exclusivity on base, containers and state, read or changed for every token.
    // Reading + measuring 128,000 tapped points (runnect-bench points, release, callgrind,
    // 2026-11-24) took 1,164 M instructions with the runtime checks, 959 M without them on these
    // three (966 M with none in the module). Private to this class, never accessed re-entrantly.
    @exclusivity(unchecked) private var base = TextPosition()
    private let maxDocumentBytes: Int
    private let maxDepth: Int
    private let maxStringBytes: Int

    // Open containers, innermost last: true for an array.
    @exclusivity(unchecked) private var containers: [Bool] = []
    private enum State { case root, arrayValueOrEnd, nameOrEnd, colon, memberValue, afterValue, done }
    @exclusivity(unchecked) private var state = State.root
    private var pendingString = false  // a `.name` or `.string` whose body is not read yet
    private var stringStart = 0  // buffer index of the pending string's opening quote

    // A string being read: its decoded bytes.
    private var scratch: UnsafeMutablePointer<UInt8>
    private var scratchCapacity = 256
    private var scratchCount = 0

    /// Depth of the container whose content comes next (0 outside the root).
    var depth: Int { containers.count }

    /// Bytes the scanner's buffer holds now: it grows only for a number longer than a chunk.
    var bufferCapacity: Int { capacity }

    /// - Parameters:
    ///   - maxDocumentBytes: the most bytes read before ``ReadError/tooLarge(limitBytes:)``.
    init(
        stream: ByteStream, maxDocumentBytes: Int = .max, maxDepth: Int = defaultMaxDepth,
        maxStringBytes: Int = defaultMaxStringBytes, chunkSize: Int = 1 << 18
    ) {
        self.stream = stream
        self.maxDocumentBytes = maxDocumentBytes
        self.maxDepth = maxDepth
        self.maxStringBytes = maxStringBytes
        capacity = max(chunkSize, 16)
        buffer = .allocate(capacity: capacity)
        scratch = .allocate(capacity: scratchCapacity)
    }

    deinit {
        buffer.deallocate()
        scratch.deallocate()
    }

    // MARK: - Errors

    /// An ``ReadError/invalidContent(_:)`` naming line, column and byte of `buffer[index]`.
    func invalid(_ message: String, at index: Int? = nil) -> ReadError {
        let index = index ?? pos
        let (line, column) = base.location(ofIndex: index, in: buffer, end: end)
        return .invalidContent(
            "invalid JSON at line \(line), column \(column) (byte \(base.byteOffset + index)): \(message)")
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte)
            ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    // MARK: - Buffer

    /// Drops the bytes before `keep`, reads more after the rest. False at the end of the stream.
    /// Buffer indexes the caller holds shift down by `keep`.
    private func refill(keeping keep: Int) throws -> Bool {
        if atEOF { return false }
        if keep > 0 {
            base.advance(over: buffer, count: keep)
            if end > keep { memmove(buffer, buffer + keep, end - keep) }
            end -= keep
            pos -= keep
            stringStart -= keep
        }
        if end == capacity {  // one number fills the buffer: grow it (numbers are bounded)
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            bigger.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = bigger
            capacity *= 2
        }
        let n = try stream.read(into: UnsafeMutableRawBufferPointer(start: buffer + end, count: capacity - end))
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

    /// Makes `count` bytes from `pos` on available; false if the document ends first.
    @inline(__always) private func available(_ count: Int) throws -> Bool {
        while end - pos < count {
            if try !refill(keeping: pos) { return false }
        }
        return true
    }

    // MARK: - Tokens

    /// The next token. A ``JSONToken/name`` or ``JSONToken/string`` not read by then is skipped.
    func next() throws -> JSONToken {
        if pendingString { try scanString(keeping: 0) }
        while true {
            // Whitespace: space, tab, line feed, carriage return.
            while pos < end, buffer[pos] == 0x20 || buffer[pos] == 0x0A || buffer[pos] == 0x0D || buffer[pos] == 0x09 {
                pos += 1
            }
            if pos >= end {
                if try refill(keeping: pos) { continue }
                if state == .done { return .endOfDocument }
                if base.byteOffset + end == 0 { throw invalid("the document is empty") }
                throw invalid(
                    containers.isEmpty
                        ? "unexpected end of file"
                        : "unexpected end of file: \(containers.count) array(s) or object(s) not closed")
            }
            let c = buffer[pos]
            switch state {
            case .root:
                if base.byteOffset == 0, pos == 0, c == 0xEF {  // a UTF-8 byte order mark
                    if try available(3), buffer[pos + 1] == 0xBB, buffer[pos + 2] == 0xBF {
                        pos += 3
                        continue
                    }
                }
                return try value(c)
            case .memberValue:
                return try value(c)
            case .arrayValueOrEnd:
                if c == UInt8(ascii: "]") { return close(array: true) }
                return try value(c)
            case .nameOrEnd:
                if c == UInt8(ascii: "}") { return close(array: false) }
                guard c == UInt8(ascii: "\"") else {
                    throw invalid("expected a member name in double quotes, found \(describe(c))")
                }
                openString()
                state = .colon
                return .name
            case .colon:
                guard c == UInt8(ascii: ":") else {
                    throw invalid("expected ':' after a member name, found \(describe(c))")
                }
                pos += 1
                state = .memberValue
            case .afterValue:
                let inArray = containers[containers.count - 1]
                if c == UInt8(ascii: ",") {
                    pos += 1
                    state = inArray ? .arrayValueOrEnd : .nameOrEnd
                } else if c == UInt8(ascii: inArray ? "]" : "}") {
                    return close(array: inArray)
                } else {
                    throw invalid("expected ',' or '\(inArray ? "]" : "}")', found \(describe(c))")
                }
            case .done:
                throw invalid("unexpected \(describe(c)) after the end of the document")
            }
        }
    }

    /// Skips the rest of a value whose first token was `token` (an array or object to its end).
    func skip(after token: JSONToken) throws {
        guard token == .beginArray || token == .beginObject else { return }
        let target = depth - 1
        while depth > target { _ = try next() }
    }

    private func afterValueState() -> State { containers.isEmpty ? .done : .afterValue }

    private func close(array: Bool) -> JSONToken {
        pos += 1
        containers.removeLast()
        state = afterValueState()
        return array ? .endArray : .endObject
    }

    private func open(array: Bool) throws -> JSONToken {
        guard containers.count < maxDepth else {
            throw invalid("arrays and objects nested deeper than \(maxDepth)")
        }
        pos += 1
        containers.append(array)
        state = array ? .arrayValueOrEnd : .nameOrEnd
        return array ? .beginArray : .beginObject
    }

    private func value(_ c: UInt8) throws -> JSONToken {
        switch c {
        case UInt8(ascii: "{"): return try open(array: false)
        case UInt8(ascii: "["): return try open(array: true)
        case UInt8(ascii: "\""):
            openString()
            state = afterValueState()
            return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try scanNumber()
            state = afterValueState()
            return .number(number)
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            throw invalid("expected a value, found \(describe(c))")
        }
    }

    private func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        guard try available(n), memcmp(buffer + pos, word.utf8Start, n) == 0 else {
            throw invalid("expected a value, found \(describe(buffer[pos]))")
        }
        pos += n
        try expectDelimiter(after: "'\(word)'")
        state = afterValueState()
    }

    /// A value must be followed by whitespace, ',', ']', '}' or the end.
    private func expectDelimiter(after what: String) throws {
        guard try available(1) else { return }
        switch buffer[pos] {
        case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"): return
        default: throw invalid("unexpected \(describe(buffer[pos])) after \(what)")
        }
    }

    // MARK: - Numbers

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, converted by ``DecimalParser``.
    private func scanNumber() throws -> Double {
        while true {
            let start = pos
            var i = pos
            var nonZeroDigit = false
            func digits() -> Int {
                let first = i
                while i < end, buffer[i] &- 0x30 < 10 {
                    if buffer[i] != 0x30 { nonZeroDigit = true }
                    i += 1
                }
                return i - first
            }
            // Each part either ends inside the buffer or runs into its end (then read more).
            if i < end, buffer[i] == UInt8(ascii: "-") { i += 1 }
            let integerStart = i
            let integerDigits = digits()
            var complete = i < end
            var problem: String?
            if integerDigits == 0 {
                problem = "a number needs a digit after '-'"
            } else if integerDigits > 1, buffer[integerStart] == 0x30 {
                problem = "a number cannot start with 0 (leading zeros are not JSON)"
            }
            if complete, problem == nil, buffer[i] == UInt8(ascii: ".") {
                i += 1
                if digits() == 0 { problem = "a number needs a digit after '.'" }
                complete = i < end
            }
            let mantissaNonZero = nonZeroDigit
            if complete, problem == nil, buffer[i] | 0x20 == UInt8(ascii: "e") {
                i += 1
                if i < end, buffer[i] == UInt8(ascii: "+") || buffer[i] == UInt8(ascii: "-") { i += 1 }
                if digits() == 0 { problem = "a number needs a digit in its exponent" }
                complete = i < end
            }
            if !complete && !atEOF {
                // The number may go on after the buffered bytes.
                guard i - start < Self.maxNumberBytes else {
                    throw invalid("a number longer than \(Self.maxNumberBytes) bytes", at: start)
                }
                _ = try refill(keeping: start)
                continue
            }
            if let problem { throw invalid(problem, at: start) }
            pos = i
            try expectDelimiter(after: "a number")
            guard let value = DecimalParser.parseDouble(buffer + start, count: i - start),
                value != 0 || !mantissaNonZero
            else {
                throw invalid(
                    "number \(String(decoding: UnsafeBufferPointer(start: buffer + start, count: min(i - start, 40)), as: UTF8.self)) is out of the range of a double",
                    at: start)
            }
            return value
        }
    }

    // MARK: - Strings

    private func openString() {
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
        let offset = base.byteOffset
        guard try scanString(keeping: maxStringBytes) else {
            let message = "a string longer than \(maxStringBytes) bytes"
            if offset == base.byteOffset { throw invalid(message, at: start) }
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
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: scratchCapacity * 2)
            bigger.update(from: scratch, count: scratchCount)
            scratch.deallocate()
            scratch = bigger
            scratchCapacity *= 2
        }
        scratch[scratchCount] = byte
        scratchCount += 1
    }

    /// Reads the pending string's body to its closing quote, checking escapes and UTF-8 and
    /// keeping up to `limit` decoded bytes in `scratch`. Returns whether all of it was kept.
    @discardableResult
    private func scanString(keeping limit: Int) throws -> Bool {
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
