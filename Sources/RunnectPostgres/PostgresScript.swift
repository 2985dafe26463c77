/// A migration's SQL file cut into the statements it runs one at a time: postgres-nio sends each
/// query through the extended protocol, which takes one statement a query.
///
/// A statement ends at a semicolon outside quotes (`'…'`, `"…"`), dollar quotes (`$$…$$`,
/// `$tag$…$tag$`) and `--` comments; the comments and blank lines before a statement are left
/// out, and the statement is sent as written, without its semicolon.
enum PostgresScript {
    /// The statements of `script`, in order.
    static func statements(_ script: [UInt8]) -> [String] {
        var statements: [String] = []
        var start: Int?
        var index = 0
        func finish(_ end: Int) {
            if let first = start {
                var last = end
                while last > first, isSpace(script[last - 1]) { last -= 1 }
                statements.append(String(decoding: script[first..<last], as: UTF8.self))
            }
            start = nil
        }
        while index < script.count {
            let byte = script[index]
            if start == nil && isSpace(byte) {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "-"), index + 1 < script.count, script[index + 1] == UInt8(ascii: "-") {
                index = end(of: script, from: index, closing: [UInt8(ascii: "\n")])
                continue
            }
            if byte == UInt8(ascii: ";") {
                finish(index)
                index += 1
                continue
            }
            if start == nil { start = index }
            if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                index = end(of: script, from: index + 1, closing: [byte])
            } else if byte == UInt8(ascii: "$"), let tag = dollarTag(script, at: index) {
                index = end(of: script, from: index + tag.count, closing: tag)
            } else {
                index += 1
            }
        }
        finish(script.count)
        return statements
    }

    /// The index past the first `closing` at or after `from` (the end of `script` without one).
    private static func end(of script: [UInt8], from: Int, closing: [UInt8]) -> Int {
        var index = from
        while index + closing.count <= script.count {
            if script[index..<index + closing.count].elementsEqual(closing) { return index + closing.count }
            index += 1
        }
        return script.count
    }

    /// The dollar-quote tag (`$$`, `$body$`) starting at `index`, if one does: a `$` followed by a
    /// digit is a parameter (`$1`), not a tag.
    private static func dollarTag(_ script: [UInt8], at index: Int) -> [UInt8]? {
        var next = index + 1
        while next < script.count, isTagByte(script[next]) { next += 1 }
        guard next < script.count, script[next] == UInt8(ascii: "$") else { return nil }
        if next > index + 1, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(script[index + 1]) { return nil }
        return Array(script[index...next])
    }

    private static func isTagByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte >= 0x80
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t")
            || byte == UInt8(ascii: "\r")
    }
}
