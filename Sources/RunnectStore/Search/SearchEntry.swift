/// A course's text as both backends' indexes keep it: normalised (``SearchText``), and cut into
/// the grams the token index holds. Needs no database, so it can be made where the course is
/// drafted.
package struct SearchEntry: Sendable {
    package let text: SearchText
    /// The grams of each field as tokens (``SearchText/tokenDocument``).
    package let tokenDocument: String
    /// ``SearchText/bothFieldsDocument``, from the same grams as ``tokenDocument``.
    package let bothFieldsDocument: String

    package init(fields: SearchFields) {
        text = SearchText(fields: fields)
        let title = KoreanText.indexGrams(of: text.title)
        let departure = KoreanText.indexGrams(of: text.departure)
        tokenDocument = SearchText.tokenDocument(
            title: title, description: KoreanText.indexGrams(of: text.description), departure: departure)
        bothFieldsDocument = SearchText.bothFieldsDocument(title: title, departure: departure)
    }
}
