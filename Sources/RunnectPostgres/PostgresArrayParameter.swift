import PostgresNIO

/// A one-dimensional array bound as one parameter, whose elements may be `NULL`: a column of
/// many rows for `unnest($1::…[], $2::…[], …)`, which postgres-nio's own arrays cannot carry
/// (their elements are never `NULL`).
///
/// One statement of `unnest` over such columns inserts a whole batch with a handful of
/// parameters; a `VALUES` list of the same rows has a parameter per value, which the server
/// parses, const-folds and plans anew each time (12 % of its time copying a store, by `perf`).
struct PostgresArrayParameter<Element: PostgresArrayEncodable>: PostgresEncodable {
    var elements: [Element?]

    init(_ elements: [Element?]) {
        self.elements = elements
    }

    static var psqlType: PostgresDataType { Element.psqlArrayType }
    static var psqlFormat: PostgresFormat { .binary }

    /// PostgreSQL's binary array: dimensions, whether any element is `NULL`, the element type,
    /// then the length and lower bound of the one dimension and each element as length and
    /// bytes (length -1: `NULL`).
    func encode<JSONEncoder: PostgresJSONEncoder>(
        into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) throws {
        buffer.writeInteger(elements.isEmpty ? 0 : 1, as: Int32.self)
        buffer.writeInteger(elements.contains { $0 == nil } ? 1 : 0, as: Int32.self)
        buffer.writeInteger(Element.psqlType.rawValue)
        guard !elements.isEmpty else { return }
        buffer.writeInteger(Int32(elements.count))
        buffer.writeInteger(1, as: Int32.self)
        for element in elements {
            guard let element else {
                buffer.writeInteger(-1, as: Int32.self)
                continue
            }
            let lengthIndex = buffer.writerIndex
            buffer.writeInteger(0, as: Int32.self)
            let start = buffer.writerIndex
            try element.encode(into: &buffer, context: context)
            buffer.setInteger(Int32(buffer.writerIndex - start), at: lengthIndex)
        }
    }
}
