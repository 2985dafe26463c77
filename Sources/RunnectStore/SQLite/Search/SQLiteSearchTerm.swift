import GRDB

extension SearchField {
    /// The field's `course_search` column.
    var column: SQL {
        switch self {
        case .title: "s.title"
        case .description: "s.description"
        case .departure: "s.departure"
        }
    }
}

/// One keyword of a search, as SQLite's SQL and token index see it.
struct SQLiteSearchTerm {
    let word: KoreanText.Word
    /// The grams the index finds the word by (``KoreanText/lookupGrams(for:)``).
    let grams: [KoreanText.Gram]
    /// Whether the index alone answers "does field F contain the word": a single gram, for a
    /// word that is not mixed. Only exact terms may be negated in an FTS5 expression.
    let isExact: Bool

    init(_ word: KoreanText.Word) {
        self.word = word
        grams = KoreanText.lookupGrams(for: word)
        isExact = grams.count == 1 && word.kind != .mixed
    }

    /// `1` when the word occurs in `field`, else `0`, exactly: `instr` for a plain word, `GLOB`
    /// with syllable classes for one with initial consonants. The word is a bound value.
    func occurs(in field: SearchField) -> SQL {
        if word.kind == .plain {
            return "(instr(\(field.column), \(word.text)) > 0)"
        }
        return "(\(field.column) GLOB \(KoreanText.globPattern(for: word.text)))"
    }

    /// The word in some field, exactly.
    var inAnyField: SQL {
        "(" + SearchField.allCases.map(occurs(in:)).joined(separator: " OR ") + ")"
    }

    /// The FTS5 expression for the word in `field`: all its grams, as tokens of that field. It
    /// holds only the index's own `[a-z0-9]` tokens, never user text.
    func expression(in field: SearchField) -> String {
        "(" + grams.map { KoreanText.token(prefix: field.tokenPrefix, gram: $0) }.joined(separator: " AND ") + ")"
    }

    /// The FTS5 expression for the word in any field.
    var expressionInAnyField: String {
        "(" + SearchField.allCases.map(expression(in:)).joined(separator: " OR ") + ")"
    }
}
