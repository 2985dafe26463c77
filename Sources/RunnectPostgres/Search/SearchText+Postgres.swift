import RunnectStore

extension SearchEntry {
    /// The tokens of a PostgreSQL search entry (schema version 12): the FTS5 document's, then
    /// the grams in both the title and the departure.
    var postgresTokenDocument: String {
        SearchText.postgresTokenDocument(tokenDocument, bothFieldsDocument)
    }
}

extension SearchText {
    /// ``SearchEntry/postgresTokenDocument`` of a row as stored: what its entry's tokens
    /// hold on PostgreSQL.
    package var postgresTokenDocument: String { Self.postgresTokenDocument(tokenDocument, bothFieldsDocument) }

    /// The two documents as one, a space between them when both have tokens.
    static func postgresTokenDocument(_ tokens: String, _ both: String) -> String {
        both.isEmpty ? tokens : tokens.isEmpty ? both : tokens + " " + both
    }
}
