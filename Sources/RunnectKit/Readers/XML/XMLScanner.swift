#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the scanner found next.
enum XMLToken {
    /// An opening tag. A self-closing tag (`<a/>`) is reported as `start` followed by `end`.
    /// Its attributes are available through ``XMLScanner/attribute(_:)`` until the next call.
    case start(name: ByteSpan)
    case end(name: ByteSpan)
    /// Character data between tags, raw: ``XMLScanner/decodeText(_:)`` resolves the predefined
    /// entities and character references when `hasReferences` is true.
    case text(ByteSpan, hasReferences: Bool)
    case endOfDocument
}

/// A streaming, pull-style XML scanner over a ``ByteStream``: memory grows with the longest
/// token, not with the document.
///
/// It checks what a reader of untrusted GPS files needs: tags nest and close, attributes are
/// quoted, there is one root element, and nothing is cut short. It never reads a DTD: document
/// type declarations are skipped, so external entities and entity expansion (XXE, "billion
/// laughs") cannot happen; only the five predefined entities and character references are
/// decoded. Namespaces are not resolved; readers match local names, which is what lets files with
/// undeclared prefixes be read at all.
final class XMLScanner {
    private let stream: ByteStream
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var pos = 0
    private var end = 0
    private var atEOF = false
    private let maxTokenBytes: Int

    // Where buffer[0] sits in the document, for line and column numbers.
    private var base = TextPosition()

    // Open element names, stored back to back in a raw buffer (arrays cost too much per element).
    private var nameBytes: UnsafeMutablePointer<UInt8>
    private var nameCapacity = 256
    private var nameLength = 0
    // Unchecked exclusivity (the module no longer builds with -enforce-exclusivity=unchecked):
    // every tag and text token reads or changes nameEnds. Reading + measuring a 20,000-point GPX
    // (runnect-bench gpx, release, callgrind, 2026-11-24) took 445 M instructions with all runtime
    // checks, 47 M of them in checks on nameEnds; 331 M with this and the GPXParser and
    // XMLTextCapture ones (327 M with none in the module). Private, never accessed re-entrantly.
    @exclusivity(unchecked) private var nameEnds: [Int] = []
    private var pendingEnd = false
    private var pendingEndName: ByteSpan?
    private var sawRoot = false
    private var checkedByteOrderMark = false

    // Attributes of the last start tag: offsets into `buffer`.
    private struct AttributeRange {
        var nameStart: Int, nameEnd: Int, valueStart: Int, valueEnd: Int, hasReferences: Bool
    }
    private var attributes: UnsafeMutablePointer<AttributeRange>
    private var attributeCapacity = 16
    private var attributeCount = 0

    /// Depth of the element whose content comes next (0 before the root).
    var depth: Int { nameEnds.count }

    init(stream: ByteStream, chunkSize: Int = 1 << 20, maxTokenBytes: Int = 64 << 20) {
        self.stream = stream
        self.capacity = chunkSize
        self.maxTokenBytes = maxTokenBytes
        self.buffer = .allocate(capacity: chunkSize)
        self.nameBytes = .allocate(capacity: nameCapacity)
        self.attributes = .allocate(capacity: attributeCapacity)
        nameEnds.reserveCapacity(32)
    }

    deinit {
        buffer.deallocate()
        byteClasses.deallocate()
        nameBytes.deallocate()
        attributes.deallocate()
    }

    private func openName(at index: Int) -> String {
        let stop = nameEnds[index]
        let start = index > 0 ? nameEnds[index - 1] : 0
        return String(decoding: UnsafeBufferPointer(start: nameBytes + start, count: stop - start), as: UTF8.self)
    }

    // MARK: - Positions

    /// Line (1-based) and column (1-based, in characters) of a buffer index.
    func location(ofIndex index: Int) -> (line: Int, column: Int) {
        base.location(ofIndex: index, in: buffer, end: end)
    }

    /// Line and column of the position the scanner has reached.
    var currentLocation: (line: Int, column: Int) { location(ofIndex: pos) }

    /// An ``ReadError/invalidValue(_:line:column:)`` at the place the scanner has reached.
    func invalid(_ message: String) -> ReadError {
        let (line, column) = currentLocation
        return .invalidValue(message, line: line, column: column)
    }

    /// Line and column of a span returned by the last token.
    func location(of span: ByteSpan) -> (line: Int, column: Int) {
        location(ofIndex: UnsafePointer(buffer).distance(to: span.start))
    }

    private func malformed(_ message: String, at index: Int) -> ReadError {
        let (line, column) = location(ofIndex: index)
        return .malformedXML(message, line: line, column: column)
    }

    // MARK: - Buffer

    /// Moves the bytes from `keep` on to the front and reads more after them.
    /// Returns false at the end of the stream. Indexes held by the caller shift by `keep`.
    private func refill(keeping keep: Int) throws -> Bool {
        if atEOF { return false }
        if keep > 0 {
            base.advance(over: buffer, count: keep)
            let remaining = end - keep
            if remaining > 0 { memmove(buffer, buffer + keep, remaining) }
            end = remaining
            pos -= keep
        }
        if end == capacity {
            guard capacity < maxTokenBytes else { throw ReadError.tooLarge(limitBytes: maxTokenBytes) }
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
        end += n
        return true
    }

    /// The next `byte` at or after `index`, eight bytes at a time (runs in GPS files are short: a
    /// number, an indent; too short for a `memchr` call to pay off).
    @inline(__always) private func find(_ byte: UInt8, from index: Int) -> Int? {
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

    private func find(_ literal: StaticString, from index: Int) -> Int? {
        let n = literal.utf8CodeUnitCount
        var i = index
        while let hit = find(literal.utf8Start[0], from: i) {
            if hit + n > end { return nil }
            if memcmp(buffer + hit, literal.utf8Start, n) == 0 { return hit }
            i = hit + 1
        }
        return nil
    }

    // MARK: - Tokens

    /// The next token. Throws ``ReadError/malformedXML(_:line:column:)`` where the document is not
    /// well formed, including a document that ends before its root element closes.
    func next() throws -> XMLToken {
        if pendingEnd {
            pendingEnd = false
            return .end(name: popName())
        }
        while true {
            if pos >= end {
                if try !refill(keeping: pos) { return try finish() }
                continue
            }
            if !checkedByteOrderMark {
                if end < 3 && !atEOF {
                    _ = try refill(keeping: pos)
                    continue
                }
                checkedByteOrderMark = true
                if end >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { pos = 3 }
                continue
            }
            if buffer[pos] != UInt8(ascii: "<") {
                if let token = try scanText() { return token }
                continue
            }
            if pos + 1 >= end {
                if try !refill(keeping: pos) { throw malformed("unexpected end of file after '<'", at: pos) }
                continue
            }
            switch buffer[pos + 1] {
            case UInt8(ascii: "/"):
                guard let gt = find(UInt8(ascii: ">"), from: pos + 2) else {
                    try needMore("unexpected end of file inside an end tag")
                    continue
                }
                return .end(name: try closeElement(nameFrom: pos + 2, to: gt))
            case UInt8(ascii: "?"):
                guard let close = find("?>", from: pos + 2) else {
                    try needMore("unexpected end of file inside a processing instruction")
                    continue
                }
                pos = close + 2
            case UInt8(ascii: "!"):
                if let token = try scanMarkupDeclaration() { return token }
            default:
                if let token = try scanStartTag() { return token }
            }
        }
    }

    /// Reads more or throws when the document ended inside a construct; the caller retries.
    /// The error names where the construct starts: `pos`, read after the refill, which moves the
    /// bytes it keeps to the front (an index taken before it would point past the end).
    private func needMore(_ message: String) throws {
        if try !refill(keeping: pos) {
            throw malformed(message, at: pos)
        }
    }

    private func finish() throws -> XMLToken {
        if !nameEnds.isEmpty {
            throw malformed("unexpected end of file: <\(openName(at: nameEnds.count - 1))> is not closed", at: end)
        }
        if !sawRoot { throw malformed("no root element", at: end) }
        return .endOfDocument
    }

    private func scanText() throws -> XMLToken? {
        let start = pos
        guard let lt = find(UInt8(ascii: "<"), from: pos) else {
            if depth == 0 {
                guard isWhitespace(from: pos, to: end) else {
                    throw malformed("text outside the root element", at: start)
                }
                pos = end  // whitespace after the root, or before it: read on
                return nil
            }
            if end - pos >= maxTokenBytes { throw ReadError.tooLarge(limitBytes: maxTokenBytes) }
            if try !refill(keeping: pos) { _ = try finish() }  // throws: an element is still open
            return nil
        }
        pos = lt
        if depth == 0 {
            // Whitespace before the XML declaration or around the root is tolerated (Polar V800).
            if !isWhitespace(from: start, to: lt) { throw malformed("text outside the root element", at: start) }
            return nil
        }
        let hasReferences = XMLScanner.find(UInt8(ascii: "&"), in: buffer, from: start, to: lt) != nil
        return .text(ByteSpan(start: buffer + start, count: lt - start), hasReferences: hasReferences)
    }

    private func isWhitespace(from start: Int, to stop: Int) -> Bool {
        for i in start..<stop {
            switch buffer[i] {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            default: return false
            }
        }
        return true
    }

    /// `<!--`, `<![CDATA[`, `<!DOCTYPE`. Returns a token for CDATA, nil otherwise.
    private func scanMarkupDeclaration() throws -> XMLToken? {
        let start = pos
        if end - start < 9 && !atEOF {
            try needMore("unexpected end of file in markup")
            return nil
        }
        if starts(with: "<!--", at: start) {
            guard let close = find("-->", from: start + 4) else {
                try needMore("unexpected end of file inside a comment")
                return nil
            }
            pos = close + 3
            return nil
        }
        if starts(with: "<![CDATA[", at: start) {
            guard depth > 0 else { throw malformed("CDATA outside the root element", at: start) }
            guard let close = find("]]>", from: start + 9) else {
                try needMore("unexpected end of file inside CDATA")
                return nil
            }
            pos = close + 3
            return .text(ByteSpan(start: buffer + start + 9, count: close - start - 9), hasReferences: false)
        }
        if starts(with: "<!DOCTYPE", at: start) {
            guard depth == 0, !sawRoot else { throw malformed("misplaced document type declaration", at: start) }
            // Skipped whole, internal subset included: no entity is ever defined or expanded.
            var i = start + 9
            var bracketDepth = 0
            var quote: UInt8 = 0
            while true {
                if i >= end {
                    let consumed = i - start
                    try needMore("unexpected end of file inside a document type declaration")
                    i = pos + consumed
                    continue
                }
                let c = buffer[i]
                if quote != 0 {
                    if c == quote { quote = 0 }
                } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                    quote = c
                } else if c == UInt8(ascii: "[") {
                    bracketDepth += 1
                } else if c == UInt8(ascii: "]") {
                    bracketDepth -= 1
                } else if c == UInt8(ascii: ">") && bracketDepth <= 0 {
                    pos = i + 1
                    return nil
                }
                i += 1
            }
        }
        throw malformed("unexpected '<!'", at: start)
    }

    private func starts(with literal: StaticString, at index: Int) -> Bool {
        let n = literal.utf8CodeUnitCount
        return index + n <= end && memcmp(buffer + index, literal.utf8Start, n) == 0
    }

    // Byte classes, looked up in a table the scanner holds (a register away in its loops).
    private static let nameStartClass: UInt8 = 1, nameClass: UInt8 = 2, spaceClass: UInt8 = 4
    private let byteClasses: UnsafeMutablePointer<UInt8> = {
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
    }()

    @inline(__always) private func isNameStart(_ c: UInt8) -> Bool { byteClasses[Int(c)] & Self.nameStartClass != 0 }
    @inline(__always) private func isNameByte(_ c: UInt8) -> Bool { byteClasses[Int(c)] & Self.nameClass != 0 }
    @inline(__always) private func isSpace(_ c: UInt8) -> Bool { byteClasses[Int(c)] & Self.spaceClass != 0 }

    /// Parses `<name attr="v" …>` or `<name …/>`, validating attribute syntax as it goes.
    private func scanStartTag() throws -> XMLToken? {
        let start = pos
        if depth == 0 && sawRoot { throw malformed("content after the root element", at: start) }
        attributeCount = 0
        var i = start + 1
        guard isNameStart(buffer[i]) else { throw malformed("invalid element name", at: i) }
        while i < end && isNameByte(buffer[i]) { i += 1 }
        let nameEnd = i
        while true {
            // Between attributes.
            while i < end && isSpace(buffer[i]) { i += 1 }
            if i >= end {
                try needMore("unexpected end of file inside a start tag")
                return nil
            }
            let c = buffer[i]
            if c == UInt8(ascii: ">") {
                pos = i + 1
                return .start(name: openElement(from: start + 1, to: nameEnd))
            }
            if c == UInt8(ascii: "/") {
                if i + 1 >= end {
                    try needMore("unexpected end of file inside a start tag")
                    return nil
                }
                guard buffer[i + 1] == UInt8(ascii: ">") else { throw malformed("expected '>' after '/'", at: i + 1) }
                pos = i + 2
                pendingEnd = true
                let name = openElement(from: start + 1, to: nameEnd)
                pendingEndName = name
                return .start(name: name)
            }
            if i == nameEnd || !isNameStart(c) {
                throw malformed("expected an attribute, '>' or '/>'", at: i)
            }
            let attributeStart = i
            while i < end && isNameByte(buffer[i]) { i += 1 }
            let attributeNameEnd = i
            while i < end && isSpace(buffer[i]) { i += 1 }
            if i >= end {
                try needMore("unexpected end of file inside a start tag")
                return nil
            }
            guard buffer[i] == UInt8(ascii: "=") else { throw malformed("expected '=' after attribute name", at: i) }
            i += 1
            while i < end && isSpace(buffer[i]) { i += 1 }
            if i >= end {
                try needMore("unexpected end of file inside a start tag")
                return nil
            }
            let quote = buffer[i]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw malformed("attribute value must be quoted", at: i)
            }
            guard let close = find(quote, from: i + 1) else {
                try needMore("unexpected end of file inside an attribute value")
                return nil
            }
            let valueStart = i + 1
            if let lt = XMLScanner.find(UInt8(ascii: "<"), in: buffer, from: valueStart, to: close) {
                throw malformed("'<' in an attribute value", at: lt)
            }
            let hasReferences = XMLScanner.find(UInt8(ascii: "&"), in: buffer, from: valueStart, to: close) != nil
            if attributeCount == attributeCapacity {
                let bigger = UnsafeMutablePointer<AttributeRange>.allocate(capacity: attributeCapacity * 2)
                bigger.moveInitialize(from: attributes, count: attributeCount)
                attributes.deallocate()
                attributes = bigger
                attributeCapacity *= 2
            }
            (attributes + attributeCount).initialize(
                to: AttributeRange(
                    nameStart: attributeStart, nameEnd: attributeNameEnd, valueStart: valueStart, valueEnd: close,
                    hasReferences: hasReferences))
            attributeCount += 1
            i = close + 1
            if i < end && !isSpace(buffer[i]) && buffer[i] != UInt8(ascii: ">") && buffer[i] != UInt8(ascii: "/") {
                throw malformed("expected whitespace between attributes", at: i)
            }
        }
    }

    private func openElement(from start: Int, to stop: Int) -> ByteSpan {
        let count = stop - start
        if nameLength + count > nameCapacity {
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: (nameLength + count) * 2)
            bigger.update(from: nameBytes, count: nameLength)
            nameBytes.deallocate()
            nameBytes = bigger
            nameCapacity = (nameLength + count) * 2
        }
        (nameBytes + nameLength).update(from: buffer + start, count: count)
        nameLength += count
        nameEnds.append(nameLength)
        sawRoot = true
        return ByteSpan(start: buffer + start, count: stop - start)
    }

    /// Closes the self-closed element just reported; its name still lies in the untouched buffer.
    private func popName() -> ByteSpan {
        nameEnds.removeLast()
        nameLength = nameEnds.last ?? 0
        return pendingEndName!
    }

    private func closeElement(nameFrom start: Int, to gt: Int) throws -> ByteSpan {
        var stop = gt
        while stop > start && isSpace(buffer[stop - 1]) { stop -= 1 }
        let count = stop - start
        guard let open = nameEnds.last else { throw malformed("end tag without a start tag", at: pos) }
        let openStart = nameEnds.count > 1 ? nameEnds[nameEnds.count - 2] : 0
        let matches = open - openStart == count && memcmp(nameBytes + openStart, buffer + start, count) == 0
        guard matches else {
            // Only the start tag's name was checked; this one goes into the message, so it must
            // be a name too (no line break, no control character).
            guard count > 0, isNameStart(buffer[start]), (start..<stop).allSatisfy({ isNameByte(buffer[$0]) }) else {
                throw malformed("invalid element name in an end tag", at: pos)
            }
            let expected = openName(at: nameEnds.count - 1)
            let found = String(decoding: UnsafeBufferPointer(start: buffer + start, count: count), as: UTF8.self)
            throw malformed("</\(found)> does not close <\(expected)>", at: pos)
        }
        nameEnds.removeLast()
        nameLength = openStart
        pos = gt + 1
        return ByteSpan(start: buffer + start, count: count)
    }

    // MARK: - Attributes and text

    /// The raw value of the attribute of the last start tag whose local name is `name`.
    func attribute(_ name: StaticString) -> (value: ByteSpan, hasReferences: Bool)? {
        for i in 0..<attributeCount {
            let range = attributes[i]
            let span = ByteSpan(start: buffer + range.nameStart, count: range.nameEnd - range.nameStart)
            if span.localName.equals(name) {
                return (
                    ByteSpan(start: buffer + range.valueStart, count: range.valueEnd - range.valueStart),
                    range.hasReferences
                )
            }
        }
        return nil
    }

    /// Resolves `&lt; &gt; &amp; &quot; &apos;` and `&#…;` references; any other reference is kept
    /// as written (never expanded: no DTD is read).
    static func decodeText(_ span: ByteSpan) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(span.count)
        var i = 0
        while i < span.count {
            let c = span[i]
            guard c == UInt8(ascii: "&") else {
                out.append(c)
                i += 1
                continue
            }
            var j = i + 1
            while j < span.count && j - i <= 12 && span[j] != UInt8(ascii: ";") { j += 1 }
            guard j < span.count && span[j] == UInt8(ascii: ";") else {
                out.append(c)
                i += 1
                continue
            }
            let name = ByteSpan(start: span.start + i + 1, count: j - i - 1)
            var replacement: [UInt8]?
            if name.equals("lt") {
                replacement = [UInt8(ascii: "<")]
            } else if name.equals("gt") {
                replacement = [UInt8(ascii: ">")]
            } else if name.equals("amp") {
                replacement = [UInt8(ascii: "&")]
            } else if name.equals("quot") {
                replacement = [UInt8(ascii: "\"")]
            } else if name.equals("apos") {
                replacement = [UInt8(ascii: "'")]
            } else if name.count > 1 && name[0] == UInt8(ascii: "#") {
                let digits =
                    name.count > 2 && (name[1] | 0x20) == UInt8(ascii: "x")
                    ? (
                        String(
                            decoding: UnsafeBufferPointer(start: name.start + 2, count: name.count - 2), as: UTF8.self),
                        16
                    )
                    : (
                        String(
                            decoding: UnsafeBufferPointer(start: name.start + 1, count: name.count - 1), as: UTF8.self),
                        10
                    )
                if let value = UInt32(digits.0, radix: digits.1), let scalar = Unicode.Scalar(value), value != 0 {
                    replacement = Array(String(Character(scalar)).utf8)
                }
            }
            if let replacement {
                out.append(contentsOf: replacement)
                i = j + 1
            } else {
                out.append(c)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
