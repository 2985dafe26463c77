import PostgresNIO
import RunnectStore

/// Version 10's backfill (`v10-search-initials.sql` adds the columns): every search entry's
/// initials projection, computed by a copy of `KoreanText.initials(of:)` as it was when version
/// 10 shipped (the entries' texts are normalised already), then the columns' defaults dropped.
/// Pinned by its checksum (`PostgresMigrationChecksumTests`): never edit, add a version.
enum SearchInitialsMigration {
    /// Entries projected a statement.
    static let batch = 2_000

    /// Gives every search entry its initials projection, `batch` entries a statement, by course
    /// id; then every new entry must bring its own.
    @Sendable static func fillInitials(_ session: PostgresSession) async throws {
        var after: Int64 = 0
        while true {
            let rows = try await session.query(
                """
                SELECT course_id, title, description, departure FROM course_search
                WHERE course_id > \(after) ORDER BY course_id LIMIT \(batch)
                """)
            guard !rows.isEmpty else { break }
            var ids: [Int64] = []
            var fields: [[String]] = [[], [], []]
            for row in rows {
                let (id, title, description, departure) = try row.decode((Int64, String, String, String).self)
                ids.append(id)
                for (index, text) in [title, description, departure].enumerated() {
                    fields[index].append(initials(of: text))
                }
                after = id
            }
            var bindings = PostgresBindings()
            try bindings.append(PostgresArrayParameter(ids))
            for projected in fields { try bindings.append(PostgresArrayParameter(projected)) }
            try await session.query(
                PostgresQuery(
                    unsafeSQL: """
                        UPDATE course_search s SET title_initials = r.title, description_initials = r.description,
                                                   departure_initials = r.departure
                        FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS r(id, title, description, departure)
                        WHERE s.course_id = r.id
                        """, binds: bindings))
        }
        try await session.execute([
            "ALTER TABLE course_search ALTER COLUMN title_initials DROP DEFAULT, "
                + "ALTER COLUMN description_initials DROP DEFAULT, ALTER COLUMN departure_initials DROP DEFAULT"
        ])
    }

    /// The 19 initial consonants as Hangul compatibility jamo, in the order of the syllable block.
    static let initialConsonants: [Unicode.Scalar] = [
        "\u{3131}", "\u{3132}", "\u{3134}", "\u{3137}", "\u{3138}", "\u{3139}", "\u{3141}",
        "\u{3142}", "\u{3143}", "\u{3145}", "\u{3146}", "\u{3147}", "\u{3148}", "\u{3149}",
        "\u{314A}", "\u{314B}", "\u{314C}", "\u{314D}", "\u{314E}",
    ]

    /// `normalized` with every precomposed syllable (가…힣) replaced by its initial consonant.
    static func initials(of normalized: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in normalized.unicodeScalars {
            if scalar.value >= 0xAC00 && scalar.value <= 0xD7A3 {
                scalars.append(initialConsonants[Int((scalar.value - 0xAC00) / (21 * 28))])
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }
}
