/// The normalised text of one course (``KoreanText/normalize(_:)``, departure parts one a line,
/// so that no keyword spans two), and its token documents: what both backends store and index.
package struct SearchText: Sendable {
    package var title: String
    package var description: String
    package var departure: String

    /// A text already normalised: a search entry's, as stored.
    package init(title: String, description: String, departure: String) {
        self.title = title
        self.description = description
        self.departure = departure
    }

    package init(fields: SearchFields) {
        title = KoreanText.normalize(fields.title)
        description = KoreanText.normalize(fields.description ?? "")
        departure = fields.departure.map(KoreanText.normalize).joined(separator: "\n")
    }

    /// Each field's initials projection (``KoreanText``: every syllable replaced by its
    /// initial consonant, `잠실 한강` → `ㅈㅅ ㅎㄱ`), in which a keyword of initial consonants
    /// is a plain substring: what PostgreSQL's search tests with `strpos` (schema version 10).
    package var initials: SearchText {
        SearchText(
            title: KoreanText.initials(of: title), description: KoreanText.initials(of: description),
            departure: KoreanText.initials(of: departure))
    }

    /// The grams in both the title and the departure, each once, as `b` tokens separated by a
    /// space (empty for none): what PostgreSQL's entries hold beside ``tokenDocument`` since
    /// its schema version 12, so that a relevance tier with a keyword in both fields reads
    /// one posting list where it intersected two (``KoreanText/lookupGrams(for:)`` with this
    /// prefix).
    package var bothFieldsDocument: String {
        Self.bothFieldsDocument(
            title: KoreanText.indexGrams(of: title), departure: KoreanText.indexGrams(of: departure))
    }

    /// ``bothFieldsDocument`` of a title's and a departure's grams.
    static func bothFieldsDocument(title: [KoreanText.Gram], departure: [KoreanText.Gram]) -> String {
        let inDeparture = Set(departure)
        var seen = Set<KoreanText.Gram>()
        let grams = title.filter { inDeparture.contains($0) && seen.insert($0).inserted }
        return KoreanText.document(prefix: SearchField.bothFieldsPrefix, grams: grams)
    }

    /// The FTS5 document: every field's grams, tokens prefixed by the field's letter.
    package var tokenDocument: String {
        Self.tokenDocument(
            title: KoreanText.indexGrams(of: title), description: KoreanText.indexGrams(of: description),
            departure: KoreanText.indexGrams(of: departure))
    }

    /// ``tokenDocument`` of each field's grams.
    static func tokenDocument(
        title: [KoreanText.Gram], description: [KoreanText.Gram], departure: [KoreanText.Gram]
    ) -> String {
        [
            KoreanText.document(prefix: SearchField.title.tokenPrefix, grams: title),
            KoreanText.document(prefix: SearchField.description.tokenPrefix, grams: description),
            KoreanText.document(prefix: SearchField.departure.tokenPrefix, grams: departure),
        ].filter { !$0.isEmpty }.joined(separator: " ")
    }
}
