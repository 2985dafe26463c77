/// What ``JSONScanner`` found next.
enum JSONToken: Equatable {
    case beginObject, endObject, beginArray, endArray
    /// A member name; its opening quote is read. Read it with ``JSONScanner/readName(maxBytes:)``
    /// or ``JSONScanner/readString()``, or leave it: the next ``JSONScanner/next()`` skips it.
    case name
    /// A string value, to be read or left as a ``name`` is.
    case string
    /// A number, correctly rounded (finite: a number out of `Double`'s range is an error).
    case number(Double)
    case bool(Bool)
    case null
    /// After the root value and trailing whitespace.
    case endOfDocument
}
