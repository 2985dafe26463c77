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

    // Unchecked exclusivity on window, containers and state, read or changed for every token.
    // Reading + measuring 128,000 tapped points (runnect-bench points, release, callgrind,
    // 2026-11-24) took 1,164 M instructions with the runtime checks, 959 M without them on base
    // (now in window), containers and state (966 M with none in the module). Since window holds
    // the buffer, its end and base, and refills change it, its checks alone cost more: 100,000
    // points took 837 M with them, 752 M without (2026-11-24). Accessed only by this class and its
    // extensions, never re-entrantly.
    // Wall clock (2 cores, AMD EPYC, 2026-11-24): parsing 100,000 points ran about 3 % slower
    // (best of 30, median of 10 runs) with the buffer in ScanBuffer than in fields of its own,
    // with 0.4 % fewer instructions. Only moving `pos` among the old fields cost the same 3 %, so
    // it is where the code and fields land, not the shared type: measure before moving fields.
    @exclusivity(unchecked) var window: ScanBuffer
    var pos = 0
    private let maxDepth: Int
    let maxStringBytes: Int

    @inline(__always) var buffer: UnsafeMutablePointer<UInt8> { window.bytes }
    @inline(__always) var end: Int { window.end }

    // Open containers, innermost last: true for an array.
    @exclusivity(unchecked) private var containers: [Bool] = []
    private enum State { case root, arrayValueOrEnd, nameOrEnd, colon, memberValue, afterValue, done }
    @exclusivity(unchecked) private var state = State.root
    var pendingString = false  // a `.name` or `.string` whose body is not read yet
    var stringStart = 0  // buffer index of the pending string's opening quote

    // A string being read: its decoded bytes.
    var scratch: UnsafeMutablePointer<UInt8>
    var scratchCapacity = 256
    var scratchCount = 0

    /// Depth of the container whose content comes next (0 outside the root).
    var depth: Int { containers.count }

    /// Bytes the scanner's buffer holds now: it grows only for a number longer than a chunk.
    var bufferCapacity: Int { window.capacity }

    /// - Parameters:
    ///   - maxDocumentBytes: the most bytes read before ``ReadError/tooLarge(limitBytes:)``.
    init(
        stream: ByteStream, maxDocumentBytes: Int = .max, maxDepth: Int = defaultMaxDepth,
        maxStringBytes: Int = defaultMaxStringBytes, chunkSize: Int = 1 << 18
    ) {
        window = ScanBuffer(stream: stream, chunkSize: max(chunkSize, 16), maxDocumentBytes: maxDocumentBytes)
        self.maxDepth = maxDepth
        self.maxStringBytes = maxStringBytes
        scratch = .allocate(capacity: scratchCapacity)
    }

    deinit {
        scratch.deallocate()
    }

    // MARK: - Errors

    /// An ``ReadError/invalidContent(_:)`` naming line, column and byte of `buffer[index]`.
    func invalid(_ message: String, at index: Int? = nil) -> ReadError {
        let index = index ?? pos
        let (line, column) = window.location(ofIndex: index)
        return .invalidContent(
            "invalid JSON at line \(line), column \(column) (byte \(window.base.byteOffset + index)): \(message)")
    }

    func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte)
            ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    // MARK: - Buffer

    /// Drops the bytes before `keep`, reads more after the rest. False at the end of the stream.
    /// Buffer indexes the caller holds shift down by `keep`.
    // Out of line: inlined into the string and number loops it cost them registers (100,000
    // tapped points: 761 M instructions inlined, 752 M out of line; callgrind, 2026-11-24).
    @inline(never) func refill(keeping keep: Int) throws -> Bool {
        let more = try window.refill(keeping: keep)
        pos -= keep
        stringStart -= keep
        return more
    }

    /// Makes `count` bytes from `pos` on available; false if the document ends first.
    @inline(__always) func available(_ count: Int) throws -> Bool {
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
                if window.base.byteOffset + end == 0 { throw invalid("the document is empty") }
                throw invalid(
                    containers.isEmpty
                        ? "unexpected end of file"
                        : "unexpected end of file: \(containers.count) array(s) or object(s) not closed")
            }
            let c = buffer[pos]
            switch state {
            case .root:
                if window.base.byteOffset == 0, pos == 0, c == 0xEF {  // a UTF-8 byte order mark
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
            if !complete && !window.atEOF {
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

}
