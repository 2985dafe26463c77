extension PostgresSchema {
    /// A piece's box as its index holds it (a query names the same expression), its columns
    /// read from `table` (`"p."`) or unqualified.
    static func pieceBox(_ table: String = "") -> String {
        "ST_MakeEnvelope(\(table)west, \(table)south, \(table)east, \(table)north)"
    }

    /// The pieces' box index as version 9 made it, made again if missing: by `db init` (a copy
    /// stopped between dropping it and building it again leaves none), and after a copy into an
    /// empty store, which builds it whole (`PostgresBackend.copyCoursesBegin()`).
    static let pieceBoxIndex = "CREATE INDEX IF NOT EXISTS course_piece_box ON course_piece USING gist (\(pieceBox()))"
}
