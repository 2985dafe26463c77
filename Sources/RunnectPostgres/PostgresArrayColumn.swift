import PostgresNIO

/// A column of many rows sent as one value (`array_agg(column)`), read from PostgreSQL's binary
/// array format straight into Swift values: the reverse of ``PostgresArrayParameter``, whose
/// elements may be `NULL` too (postgres-nio's own arrays cannot hold them).
///
/// Why: a search's walk sends back hundreds of rows (`서울 강`: 465 of its 1,024 at a million
/// courses), and each row was a message that postgres-nio's event loop parsed and a tuple its
/// generic decode read: 1.6 ms of the client's CPU a search by `perf`, in series with the
/// server. The same rows as one row of arrays are one message, read here by plain loads.
struct PostgresArrayColumn<Element: PostgresArrayColumnElement>: PostgresDecodable {
    /// The elements in the array's order; `nil` where the element is `NULL`.
    var elements: [Element?]

    /// Reads dimensions, whether any element is `NULL`, the element type, the length and lower
    /// bound of the one dimension, then each element as length (`-1`: `NULL`) and bytes.
    init<JSONDecoder: PostgresJSONDecoder>(
        from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat,
        context: PostgresDecodingContext<JSONDecoder>
    ) throws {
        guard format == .binary, let dimensions = buffer.readInteger(as: Int32.self),
            buffer.readInteger(as: Int32.self) != nil, let elementType = buffer.readInteger(as: UInt32.self)
        else { throw PostgresDecodingError.Code.failure }
        guard elementType == Element.psqlType.rawValue else { throw PostgresDecodingError.Code.typeMismatch }
        guard dimensions == 1 else {
            guard dimensions == 0 else { throw PostgresDecodingError.Code.failure }
            elements = []
            return
        }
        guard let count = buffer.readInteger(as: Int32.self), count >= 0, buffer.readInteger(as: Int32.self) != nil,
            Int(count) * 4 <= buffer.readableBytes
        else { throw PostgresDecodingError.Code.failure }
        var elements: [Element?] = []
        elements.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let length = buffer.readInteger(as: Int32.self) else { throw PostgresDecodingError.Code.failure }
            guard length >= 0 else {
                elements.append(nil)
                continue
            }
            guard Int(length) <= buffer.readableBytes, let element = Element(reading: &buffer, length: Int(length))
            else { throw PostgresDecodingError.Code.failure }
            elements.append(element)
        }
        self.elements = elements
    }
}

/// An element type of ``PostgresArrayColumn``: its PostgreSQL type and how its binary form reads.
protocol PostgresArrayColumnElement {
    /// The element type the array must declare.
    static var psqlType: PostgresDataType { get }

    /// Reads an element of `length` bytes (all of which are there); nil when they are not one.
    init?(reading buffer: inout ByteBuffer, length: Int)
}

extension Int64: PostgresArrayColumnElement {
    init?(reading buffer: inout ByteBuffer, length: Int) {
        guard length == 8, let value = buffer.readInteger(as: Int64.self) else { return nil }
        self = value
    }
}

extension Int32: PostgresArrayColumnElement {
    init?(reading buffer: inout ByteBuffer, length: Int) {
        guard length == 4, let value = buffer.readInteger(as: Int32.self) else { return nil }
        self = value
    }
}

extension Double: PostgresArrayColumnElement {
    init?(reading buffer: inout ByteBuffer, length: Int) {
        guard length == 8, let bits = buffer.readInteger(as: UInt64.self) else { return nil }
        self = Double(bitPattern: bits)
    }
}

extension String: PostgresArrayColumnElement {
    init?(reading buffer: inout ByteBuffer, length: Int) {
        guard let value = buffer.readString(length: length) else { return nil }
        self = value
    }
}
