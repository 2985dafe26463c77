extension XMLScanner {
    /// `<!--`, `<![CDATA[`, `<!DOCTYPE`. Returns a token for CDATA, nil otherwise.
    func scanMarkupDeclaration() throws -> XMLToken? {
        let start = pos
        if end - start < 9 && !window.atEOF {
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
}
