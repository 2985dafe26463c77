/// What an open element is to an ``XMLContextParser``: one of the format's own contexts, or one of
/// the two that every format has.
protocol XMLParserContext: Equatable {
    /// An element whose text is captured into a field.
    static var field: Self { get }
    /// An element the parser passes over, with everything in it.
    static var other: Self { get }
}
