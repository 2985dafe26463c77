import Foundation

/// The state machine behind an XML format's reader (``GPXReader``, ``TCXReader``): what an element
/// means depends on the context of the element it opens in.
///
/// A conforming parser says what each element is in its parent's context, and what a closed
/// element or a captured field does; the token loop, the stack of the open elements' contexts and
/// the capture of a field's text across text tokens are the same for every format, here.
protocol XMLContextParser: AnyObject {
    associatedtype Context: XMLParserContext
    /// What a captured element's text is read into.
    associatedtype Field
    /// What the parser makes of the whole document.
    associatedtype Document

    var scanner: XMLScanner { get }
    /// The contexts of the open elements, innermost last.
    var contexts: [Context] { get set }
    /// The field whose element is open, if any: its text goes into ``text``.
    var field: Field? { get set }
    var text: XMLTextCapture { get }
    /// Whether a time without a zone was read (and taken as UTC).
    var sawZonelessTime: Bool { get set }
    var skipped: SkippedValues { get set }

    /// The local name of the format's root element: any other is
    /// ``ReadError/unrecognizedFormat(_:)``.
    static var rootName: StaticString { get }

    /// The root element's context (its attributes are the scanner's).
    func rootContext() -> Context
    /// The context of an element with local name `name` opened in `parent`; for a field, what
    /// ``capture(_:)`` returns.
    func context(of name: ByteSpan, in parent: Context) throws -> Context
    /// An element that is not a field closed.
    func end(_ context: Context) throws
    /// A field's element closed: its text is in ``text``.
    func finish(_ field: Field) throws
    /// The document ended; `warnings` are the ones every format gives (zone-less times, skipped
    /// values).
    func endOfDocument(warnings: [String]) -> Document
}

extension XMLContextParser {
    /// Reads the document to its end.
    func parse() throws -> Document {
        contexts.reserveCapacity(16)
        while true {
            switch try scanner.next() {
            case .start(let name):
                let name = name.localName
                guard let parent = contexts.last else {
                    guard name.equals(Self.rootName) else {
                        throw ReadError.unrecognizedFormat(
                            "the root element is <\(name.string)>, not <\(Self.rootName)>")
                    }
                    contexts.append(rootContext())
                    continue
                }
                contexts.append(try context(of: name, in: parent))
            case .end:
                let context = contexts.removeLast()
                if context == .field {
                    guard let current = field else { continue }
                    field = nil
                    try finish(current)
                } else {
                    try end(context)
                }
            case .text(let span, let hasReferences):
                if field != nil { text.append(span, hasReferences: hasReferences) }
            case .endOfDocument:
                return endOfDocument(warnings: Self.warnings(sawZonelessTime: sawZonelessTime, skipped: skipped))
            }
        }
    }

    /// The warnings every format gives at the end of a document.
    static func warnings(sawZonelessTime: Bool, skipped: SkippedValues) -> [String] {
        var warnings: [String] = []
        if sawZonelessTime { warnings.append("times without a time zone were taken as UTC") }
        if let warning = skipped.warning { warnings.append(warning) }
        return warnings
    }

    /// Starts capturing the text of `wanted`: the context of its element, or `.other` when the
    /// element is no field (`wanted` is `nil`).
    func capture(_ wanted: Field?) -> Context {
        guard let wanted else { return .other }
        field = wanted
        text.reset()
        return .field
    }

    /// The captured text as a number; an empty element means "absent".
    @inline(__always) func number(_ what: String) throws -> Double? {
        try text.number(what, at: scanner)
    }

    /// The captured text as a time; an empty element means "absent".
    func time() throws -> Date? {
        try text.date(at: scanner, sawZoneless: &sawZonelessTime)
    }
}
