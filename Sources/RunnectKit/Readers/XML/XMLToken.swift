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
