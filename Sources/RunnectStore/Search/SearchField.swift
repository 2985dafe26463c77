/// A field a keyword is looked for in, and the letter its grams' index tokens start with.
package enum SearchField: CaseIterable, Sendable {
    case title, description, departure

    /// The letter of the field's tokens: `t`, `d`, `p`.
    package var tokenPrefix: UInt8 {
        switch self {
        case .title: UInt8(ascii: "t")
        case .description: UInt8(ascii: "d")
        case .departure: UInt8(ascii: "p")
        }
    }

    /// The letter of the tokens of grams in both the title and the departure (PostgreSQL's
    /// entries, schema version 12).
    package static let bothFieldsPrefix = UInt8(ascii: "b")
}
