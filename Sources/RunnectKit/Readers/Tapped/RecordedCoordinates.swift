/// A GeoJSON `coordinates` value kept compactly until the object's `type` is known (members come
/// in any order): its arrays and numbers, anything else as a placeholder. About 20 bytes a
/// `[lon, lat]` position instead of a JSON tree's hundreds.
struct RecordedCoordinates {
    enum Mark: UInt8 { case open, close, number, other }

    private(set) var marks: [Mark] = []
    private(set) var numbers: [Double] = []

    /// A place in the recording.
    struct Cursor {
        var mark = 0
        var number = 0
    }

    /// Records the value whose first token is `token`, reading the rest from `scanner`.
    init(from scanner: JSONScanner, first token: JSONToken) throws {
        var token = token
        var depth = 0
        repeat {
            switch token {
            case .beginArray:
                marks.append(.open)
                depth += 1
            case .endArray:
                marks.append(.close)
                depth -= 1
            case .number(let value):
                marks.append(.number)
                numbers.append(value)
            case .beginObject:
                marks.append(.other)
                try scanner.skip(after: token)
            default: marks.append(.other)
            }
            if depth > 0 { token = try scanner.next() }
        } while depth > 0
    }

    /// Whether the value at `cursor` is an array.
    func isArray(at cursor: Cursor) -> Bool { marks[cursor.mark] == .open }

    /// Moves `cursor` past the value it is at.
    func skipValue(_ cursor: inout Cursor) {
        var depth = 0
        repeat {
            switch marks[cursor.mark] {
            case .open: depth += 1
            case .close: depth -= 1
            case .number: cursor.number += 1
            case .other: break
            }
            cursor.mark += 1
        } while depth > 0
    }

    /// Calls `body` with a cursor at each element of the array at `cursor` (`body` moves it past
    /// the element), then moves `cursor` past the array.
    func forEachElement(_ cursor: inout Cursor, _ body: (inout Cursor) throws -> Void) rethrows {
        cursor.mark += 1
        while marks[cursor.mark] != .close { try body(&cursor) }
        cursor.mark += 1
    }

    /// Elements of the array at `cursor`.
    func count(at cursor: Cursor) -> Int {
        var inner = cursor
        var count = 0
        forEachElement(&inner) {
            skipValue(&$0)
            count += 1
        }
        return count
    }

    /// The GeoJSON position at `cursor` (`[lon, lat]` or `[lon, lat, ele]`, a non-number
    /// elevation read as none), or nil when it is none; moves `cursor` past it either way.
    func position(_ cursor: inout Cursor) -> (longitude: Double, latitude: Double, elevation: Double?)? {
        guard isArray(at: cursor) else {
            skipValue(&cursor)
            return nil
        }
        var longitude: Double?
        var latitude: Double?
        var elevation: Double?
        var count = 0
        forEachElement(&cursor) { element in
            if marks[element.mark] == .number {
                let value = numbers[element.number]
                switch count {
                case 0: longitude = value
                case 1: latitude = value
                case 2: elevation = value
                default: break
                }
            }
            skipValue(&element)
            count += 1
        }
        guard count == 2 || count == 3, let longitude, let latitude else { return nil }
        return (longitude, latitude, elevation)
    }
}
