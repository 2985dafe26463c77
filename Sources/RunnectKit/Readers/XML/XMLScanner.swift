#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    // Unchecked exclusivity: every token reads the window's bytes and end, and refills change
    // them. Reading + measuring a 20,000-point GPX (runnect-bench gpx, release, callgrind,
    // 2026-11-24) took 423 M instructions with runtime checks on window, 330 M without. Accessed
    // only by this class and its extensions, never re-entrantly.
    @exclusivity(unchecked) var window: ScanBuffer
    var pos = 0
    private let maxTokenBytes: Int

    @inline(__always) var buffer: UnsafeMutablePointer<UInt8> { window.bytes }
    @inline(__always) var end: Int { window.end }

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
    var sawRoot = false
    private var checkedByteOrderMark = false
    /// For the first part of a split read (``GPXReader``'s parallel path): the stream ending
    /// inside the root element ends the part instead of being an error, when it ends between
    /// markup (in text or after a tag), and ``stoppedInsideRoot`` says so.
    var stopsAtEndOfStream = false
    /// Whether the scanner stopped at the end of the stream inside the root element, as
    /// ``stopsAtEndOfStream`` allows.
    private(set) var stoppedInsideRoot = false
    let byteClasses = XMLScanner.makeByteClasses()

    // Attributes of the last start tag: offsets into `buffer`.
    private struct AttributeRange {
        var nameStart: Int, nameEnd: Int, valueStart: Int, valueEnd: Int, hasReferences: Bool
    }
    private var attributes: UnsafeMutablePointer<AttributeRange>
    private var attributeCapacity = 16
    private var attributeCount = 0

    /// Depth of the element whose content comes next (0 before the root).
    var depth: Int { nameEnds.count }

    /// The names of the open elements, outermost first, as written (prefixes included).
    var openNames: [[UInt8]] {
        nameEnds.indices.map { index in
            let start = index > 0 ? nameEnds[index - 1] : 0
            return Array(UnsafeBufferPointer(start: nameBytes + start, count: nameEnds[index] - start))
        }
    }

    /// Starts the scanner inside the elements `names` (outermost first), as if their start tags
    /// had been read: for the second part of a split read, which starts in the middle of a
    /// document (past its byte order mark and root start tag).
    func assumeOpen(_ names: [[UInt8]]) {
        precondition(nameEnds.isEmpty && !sawRoot, "assumeOpen(_:) comes before the first token")
        for name in names {
            name.withUnsafeBufferPointer { bytes in
                if nameLength + bytes.count > nameCapacity {
                    nameCapacity = (nameLength + bytes.count) * 2
                    nameBytes = nameBytes.moved(count: nameLength, toCapacity: nameCapacity)
                }
                if let base = bytes.baseAddress { (nameBytes + nameLength).update(from: base, count: bytes.count) }
                nameLength += bytes.count
                nameEnds.append(nameLength)
            }
        }
        sawRoot = true
        checkedByteOrderMark = true
    }

    init(stream: ByteStream, chunkSize: Int = 1 << 20, maxTokenBytes: Int = 64 << 20) {
        window = ScanBuffer(stream: stream, chunkSize: chunkSize, maxCapacity: maxTokenBytes)
        self.maxTokenBytes = maxTokenBytes
        self.nameBytes = .allocate(capacity: nameCapacity)
        self.attributes = .allocate(capacity: attributeCapacity)
        nameEnds.reserveCapacity(32)
    }

    deinit {
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

    /// Bytes into the document of the position the scanner has reached.
    var byteOffset: Int { window.base.byteOffset + pos }

    /// Line and column of the position the scanner has reached.
    var currentLocation: (line: Int, column: Int) { window.location(ofIndex: pos) }

    /// An ``ReadError/invalidValue(_:line:column:)`` at the place the scanner has reached.
    func invalid(_ message: String) -> ReadError {
        let (line, column) = currentLocation
        return .invalidValue(message, line: line, column: column)
    }

    // Out of line, as refill(keeping:) is: the error paths inlined into next() took the
    // registers of its search loop (20,000-point GPX: 332 M instructions inlined, 330 M not;
    // callgrind, 2026-11-24).
    @inline(never) func malformed(_ message: String, at index: Int) -> ReadError {
        let (line, column) = window.location(ofIndex: index)
        return .malformedXML(message, line: line, column: column)
    }

    // MARK: - Buffer

    /// Moves the bytes from `keep` on to the front and reads more after them.
    /// Returns false at the end of the stream. Indexes held by the caller shift by `keep`.
    // Out of line: a refill is rare, and inlined it cost the token loops registers.
    @inline(never) private func refill(keeping keep: Int) throws -> Bool {
        let more = try window.refill(keeping: keep)
        pos -= keep
        return more
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
                if end < 3 && !window.atEOF {
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
                try needMore("unexpected end of file after '<'")
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
    func needMore(_ message: String) throws {
        if try !refill(keeping: pos) {
            throw malformed(message, at: pos)
        }
    }

    private func finish() throws -> XMLToken {
        if !nameEnds.isEmpty && stopsAtEndOfStream {
            stoppedInsideRoot = true
            return .endOfDocument
        }
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
            // An element is still open: finish() throws, unless this is the end of a split read's part.
            if try !refill(keeping: pos) { return try finish() }
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
            guard let afterSpace = try skipSpaceInStartTag(from: i) else { return nil }
            i = afterSpace
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
            guard let afterSpace = try skipSpaceInStartTag(from: i) else { return nil }
            i = afterSpace
            guard buffer[i] == UInt8(ascii: "=") else { throw malformed("expected '=' after attribute name", at: i) }
            i += 1
            guard let afterSpace = try skipSpaceInStartTag(from: i) else { return nil }
            i = afterSpace
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
                attributes = attributes.moved(count: attributeCount, toCapacity: attributeCapacity * 2)
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

    /// The first index from `index` on that is not whitespace, inside a start tag; `nil` when the
    /// buffer ends first, after reading more (the caller scans the tag again).
    @inline(__always) private func skipSpaceInStartTag(from index: Int) throws -> Int? {
        var i = index
        while i < end && isSpace(buffer[i]) { i += 1 }
        if i < end { return i }
        try needMore("unexpected end of file inside a start tag")
        return nil
    }

    private func openElement(from start: Int, to stop: Int) -> ByteSpan {
        let count = stop - start
        if nameLength + count > nameCapacity {
            nameCapacity = (nameLength + count) * 2
            nameBytes = nameBytes.moved(count: nameLength, toCapacity: nameCapacity)
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
}
