import Foundation

/// A JSON encoder that writes object keys in the order `encode(to:)` encodes them.
///
/// Foundation's `JSONEncoder` keeps an object's keys in a dictionary, so its output order is
/// unspecified (on Linux it changes from run to run) unless sorted alphabetically. The toolkit's
/// wire formats promise a documented key order (``ActivityStats`` lists its figures in reading
/// order), so they are written with this encoder instead.
///
/// The output is compact, UTF-8, with `/` left unescaped. Numbers are written as Swift prints them,
/// without a trailing `.0` (`1000`, `2.5`, `1e-05`); non-finite numbers throw
/// `EncodingError.invalidValue`, as `JSONEncoder` does. URLs are written as strings and `Decimal`s
/// as numbers, as `JSONEncoder` does; dates and data as their own `encode(to:)` writes them (the
/// toolkit's own types write dates as ISO 8601 strings). Keyed containers requested more than once
/// at the same level add to one object, so a wrapper can write its own keys around a wrapped value's
/// `encode(to:)`; a key encoded twice keeps its first position and its last value.
public struct OrderedJSONEncoder: Sendable {
    public init() {}

    /// Encodes `value` as compact JSON.
    ///
    /// - Throws: `EncodingError.invalidValue` for a non-finite number or a value that encodes nothing.
    /// - Complexity: O(size of the output).
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        Data(try encodeToString(value).utf8)
    }

    /// Encodes `value` as compact JSON text; see ``encode(_:)``.
    public func encodeToString<T: Encodable>(_ value: T) throws -> String {
        let root = Node()
        try value.encode(to: NodeEncoder(node: root, codingPath: []))
        var out = ""
        try root.write(to: &out, codingPath: [])
        return out
    }
}

// MARK: - The encoded tree

/// One JSON value under construction. A reference type, so containers handed out by an encoder keep
/// writing into the same place.
private final class Node {
    enum Value {
        case empty
        case literal(String)
        case object(keys: [String], values: [String: Node])
        case array([Node])
    }

    var value: Value = .empty

    func setLiteral(_ text: String) { value = .literal(text) }

    /// Makes the node an object (keeping its keys if it already is one).
    func becomeObject() {
        if case .object = value { return }
        value = .object(keys: [], values: [:])
    }

    /// Makes the node an array (keeping its elements if it already is one).
    func becomeArray() {
        if case .array = value { return }
        value = .array([])
    }

    /// The node under `key`, created at the end of the object if new.
    func child(forKey key: String) -> Node {
        guard case .object(var keys, var values) = value else { preconditionFailure("not an object") }
        if let existing = values[key] {
            existing.value = .empty
            return existing
        }
        let node = Node()
        keys.append(key)
        values[key] = node
        value = .object(keys: keys, values: values)
        return node
    }

    /// A new node at the end of the array.
    func appendChild() -> Node {
        guard case .array(var elements) = value else { preconditionFailure("not an array") }
        let node = Node()
        elements.append(node)
        value = .array(elements)
        return node
    }

    var count: Int {
        if case .array(let elements) = value { return elements.count }
        return 0
    }

    func write(to out: inout String, codingPath: [CodingKey]) throws {
        switch value {
        case .empty:
            throw EncodingError.invalidValue(
                Optional<Int>.none as Any,
                EncodingError.Context(codingPath: codingPath, debugDescription: "Value encoded nothing."))
        case .literal(let text):
            out += text
        case .object(let keys, let values):
            out += "{"
            for (offset, key) in keys.enumerated() {
                if offset > 0 { out += "," }
                Self.writeString(key, to: &out)
                out += ":"
                try values[key]!.write(to: &out, codingPath: codingPath + [JSONKey(key)])
            }
            out += "}"
        case .array(let elements):
            out += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { out += "," }
                try element.write(to: &out, codingPath: codingPath + [JSONKey(offset)])
            }
            out += "]"
        }
    }

    static func writeString(_ string: String, to out: inout String) {
        out += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    static func number<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: F, codingPath: [CodingKey]
    ) throws -> String {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: codingPath, debugDescription: "\(value) is not a valid JSON number."))
        }
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}

private struct JSONKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string }
    init(_ index: Int) { stringValue = "Index \(index)"; intValue = index }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(intValue) }
}

// MARK: - Encoder and containers

private struct NodeEncoder: Encoder {
    let node: Node
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        node.becomeArray()
        return UnkeyedNodeContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> SingleValueEncodingContainer {
        SingleValueNodeContainer(node: node, codingPath: codingPath)
    }
}

/// Encodes one value into `node`: the primitives directly, anything else through its `encode(to:)`.
private func encodeValue<T: Encodable>(_ value: T, into node: Node, codingPath: [CodingKey]) throws {
    switch value {
    case let string as String:
        var text = ""
        Node.writeString(string, to: &text)
        node.setLiteral(text)
    case let bool as Bool: node.setLiteral(bool ? "true" : "false")
    case let double as Double: node.setLiteral(try Node.number(double, codingPath: codingPath))
    case let float as Float: node.setLiteral(try Node.number(float, codingPath: codingPath))
    case let integer as any BinaryInteger: node.setLiteral("\(integer)")
    // As JSONEncoder writes them, rather than as their own encode(to:) would.
    case let url as URL: try encodeValue(url.absoluteString, into: node, codingPath: codingPath)
    case let decimal as Decimal: node.setLiteral(decimal.description)
    default: try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
    }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    let codingPath: [CodingKey]

    private func child(_ key: Key) -> Node { node.child(forKey: key.stringValue) }

    mutating func encodeNil(forKey key: Key) throws { child(key).setLiteral("null") }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encodeValue(value, into: child(key), codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = child(key)
        nested.becomeObject()
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        let nested = child(key)
        nested.becomeArray()
        return UnkeyedNodeContainer(node: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> Encoder {
        NodeEncoder(node: node.child(forKey: "super"), codingPath: codingPath + [JSONKey("super")])
    }

    mutating func superEncoder(forKey key: Key) -> Encoder {
        NodeEncoder(node: child(key), codingPath: codingPath + [key])
    }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: Node
    let codingPath: [CodingKey]
    var count: Int { node.count }

    private var nextPath: [CodingKey] { codingPath + [JSONKey(count)] }

    mutating func encodeNil() throws { node.appendChild().setLiteral("null") }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = nextPath
        try encodeValue(value, into: node.appendChild(), codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        let nested = node.appendChild()
        nested.becomeObject()
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        let path = nextPath
        let nested = node.appendChild()
        nested.becomeArray()
        return UnkeyedNodeContainer(node: nested, codingPath: path)
    }

    mutating func superEncoder() -> Encoder {
        let path = nextPath
        return NodeEncoder(node: node.appendChild(), codingPath: path)
    }
}

private struct SingleValueNodeContainer: SingleValueEncodingContainer {
    let node: Node
    let codingPath: [CodingKey]

    mutating func encodeNil() throws { node.setLiteral("null") }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encodeValue(value, into: node, codingPath: codingPath)
    }
}
