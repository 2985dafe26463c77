import Foundation

/// A comma-separated table read by the rules of RFC 4180: fields separated by commas, records by
/// CRLF or LF, a field in double quotes may hold commas, line breaks and doubled quotes (`""`).
///
/// Small on purpose: Strava's `activities.csv` needs nothing more (no other separators, no
/// comments, no type inference), so a dependency would bring more than it gives. A quote inside
/// an unquoted field is kept as written, as most readers do; a quoted field that never closes is
/// an error naming the line it starts on.
struct CSVTable: Sendable {
    /// The first record.
    let header: [String]
    /// The other records; each may have fewer or more fields than the header.
    let rows: [[String]]
    /// The line each of ``rows`` starts on (1-based; a quoted field can span lines).
    let rowLines: [Int]

    /// Why text is not a CSV table.
    struct Malformed: Error, Equatable {
        let line: Int
        let message: String
    }

    /// Parses `bytes` (UTF-8; a byte order mark is skipped). Blank lines are skipped.
    /// - Throws: ``Malformed`` for a quoted field without its closing quote, or no header.
    init(bytes: [UInt8]) throws {
        var records: [[String]] = []
        var recordLines: [Int] = []
        var recordLine = 1
        var record: [String] = []
        var field: [UInt8] = []
        var line = 1
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var recordIsBlank = true

        func endField() {
            record.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        func endRecord() {
            endField()
            if !(recordIsBlank && record.count == 1 && record[0].isEmpty) {
                records.append(record)
                recordLines.append(recordLine)
            }
            record = []
            recordIsBlank = true
        }

        let quote = UInt8(ascii: "\"")
        let comma = UInt8(ascii: ",")
        let cr: UInt8 = 0x0D
        let lf: UInt8 = 0x0A
        while i < bytes.count {
            let c = bytes[i]
            if c == quote && field.isEmpty {  // a quote opens a field only as its first byte
                // A quoted field: up to the closing quote that is not doubled.
                let startLine = line
                recordIsBlank = false
                i += 1
                var closed = false
                while i < bytes.count {
                    let q = bytes[i]
                    if q == quote {
                        if i + 1 < bytes.count && bytes[i + 1] == quote {
                            field.append(quote)
                            i += 2
                            continue
                        }
                        i += 1
                        closed = true
                        break
                    }
                    if q == lf { line += 1 }
                    field.append(q)
                    i += 1
                }
                guard closed else { throw Malformed(line: startLine, message: "a quoted field is not closed") }
                continue
            }
            switch c {
            case comma:
                recordIsBlank = false
                endField()
            case lf:
                endRecord()
                line += 1
                recordLine = line
            case cr where i + 1 < bytes.count && bytes[i + 1] == lf:
                break  // the LF ends the record
            default:
                recordIsBlank = false
                field.append(c)
            }
            i += 1
        }
        if !field.isEmpty || !record.isEmpty || !recordIsBlank { endRecord() }
        guard let first = records.first else { throw Malformed(line: 1, message: "no header line") }
        header = first
        rows = Array(records.dropFirst())
        rowLines = Array(recordLines.dropFirst())
    }

    /// The index of the first column named `name` (headers may repeat a name; the first wins).
    func column(_ name: String) -> Int? {
        header.firstIndex { $0.trimmingCharacters(in: .whitespaces) == name }
    }
}
