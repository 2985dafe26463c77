extension XMLScanner {
    /// The value of the last start tag's attribute whose local name is `name`, with references
    /// decoded; `nil` when the tag has no such attribute.
    func attributeText(_ name: StaticString) -> String? {
        guard let attribute = attribute(name) else { return nil }
        return attribute.hasReferences ? XMLScanner.decodeText(attribute.value) : attribute.value.string
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
