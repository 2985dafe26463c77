import PostgresNIO
import RunnectStore

extension PostgresSchema {
    /// Version 10: a search entry keeps each field's initials projection (`title_initials`,
    /// `description_initials`, `departure_initials`: every syllable replaced by its initial
    /// consonant, as `SearchIndex.NormalizedRow.initials` writes it), and
    /// `runnect_search_page` tests every keyword with `strpos`: a plain keyword in the text, a
    /// keyword of initial consonants in the projection (exact: `ㅇㄹㅍ` is a substring of
    /// `ㅇㄹㅍㄱㅇ` exactly where it matches `올림픽공원`), a mixed one in both (its literal run in
    /// the text, its projection in the projection's same field). A walk no longer reads the
    /// entries' grams, and a tier's title and departure counts hold for every keyword.
    ///
    /// Why: a walk tested a keyword of initials with `@>` on the entry's grams (about 127 of
    /// them, 1.3 KB a row, in each field's list in turn): 9 of the 11 ms of `ㅇㄹㅍ`'s walk of
    /// 1,024 entries at a million courses. With `strpos` on the projection the same walk takes
    /// 1.1–1.3 ms (`runnect-bench pg search`, `auto_explain`, 2026-11-25), and `ㅇㄹㅍ`'s p95
    /// 17.4 → 10.6 ms. And a tier's counts left such a keyword out (it had no needle), so a rare
    /// tier asked the GIN index for every entry with it in any field.
    static let searchInitialsStatements: [String] = [
        """
        ALTER TABLE course_search ADD COLUMN title_initials text NOT NULL DEFAULT '',
                                  ADD COLUMN description_initials text NOT NULL DEFAULT '',
                                  ADD COLUMN departure_initials text NOT NULL DEFAULT ''
        """,
        "GRANT INSERT (title_initials, description_initials, departure_initials) ON course_search TO \(runnerGroup)",
        "DROP FUNCTION runnect_search_page(\(searchPageV5Arguments))",
        searchPageWordsFunction,
        "REVOKE ALL ON FUNCTION runnect_search_page(\(searchPageArguments)) FROM PUBLIC",
        "GRANT EXECUTE ON FUNCTION runnect_search_page(\(searchPageArguments)) TO \(runnerGroup)",
    ]

    /// The statements after ``fillInitials(_:)``: every entry now has its projection, and a new
    /// one must bring its own.
    static let searchInitialsDefaultsDropped =
        "ALTER TABLE course_search ALTER COLUMN title_initials DROP DEFAULT, "
        + "ALTER COLUMN description_initials DROP DEFAULT, ALTER COLUMN departure_initials DROP DEFAULT"

    /// `runnect_search_page`'s argument types from version 5 to 9.
    static let searchPageV5Arguments = "text[], text[], integer, integer, boolean, text, integer, integer, integer"

    /// `runnect_search_page`'s argument types since version 10.
    static let searchPageArguments =
        "text[], text[], text[], integer, integer, boolean, text, integer, integer, integer"

    /// Entries ``fillInitials(_:)`` projects a statement.
    static let initialsBatch = 2_000

    /// Gives every search entry its initials projection, computed here by the Swift that
    /// computes every new entry's (`SearchIndex.NormalizedRow.initials`; the entries' texts are
    /// normalised already), ``initialsBatch``
    /// entries a statement, by course id; then drops the columns' defaults.
    static func fillInitials(_ session: PostgresSession) async throws {
        var after: Int64 = 0
        while true {
            let rows = try await session.query(
                """
                SELECT course_id, title, description, departure FROM course_search
                WHERE course_id > \(after) ORDER BY course_id LIMIT \(initialsBatch)
                """)
            guard !rows.isEmpty else { break }
            var ids: [Int64] = []
            var fields: [[String]] = [[], [], []]
            for row in rows {
                let (id, title, description, departure) = try row.decode((Int64, String, String, String).self)
                ids.append(id)
                for (index, text) in [title, description, departure].enumerated() {
                    fields[index].append(KoreanText.initials(of: text))
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
        try await session.execute([searchInitialsDefaultsDropped])
    }

    /// Rows `skip + 1` to `skip + up_to` of the courses the caller may read whose search entry
    /// meets every clause and holds every keyword's needles, in `sort` order, as version 5's
    /// function (which see), with needles a keyword each: `needles[i]`, the literal run of
    /// keyword `i` (`KoreanText.literalRun(of:)`), in a field's text, and `initials[i]`, its
    /// initials projection (none for a plain keyword), in the same field's projection; a null
    /// needle asks nothing, and a keyword has at least one. At least `title_words` keywords
    /// hold theirs in the title, `departure_words` in the departure. Needles enter only as
    /// bound parameters (`$2` and `$6`), found with `strpos`.
    ///
    /// Each row also tells how many keywords hold their needles in its title (`in_title`) and in
    /// its departure (`in_departure`). Where no keyword is mixed, `strpos` decides each keyword
    /// exactly (a plain one in the text, one of initials in the projection): the rows are the
    /// matches and the counts theirs, and the texts come back null, for the store has nothing
    /// to check. Else the texts come, for the store's exact check (`KoreanText.contains`).
    ///
    /// Why: at a million courses `a` in relevance order walked 1,024 entries and sent back
    /// their 618 matches, title, description and departure each, to be checked one by one in
    /// the store: more of its time than the server's reads.
    static let searchPageWordsFunction =
        """
        CREATE FUNCTION runnect_search_page(clauses text[], needles text[], initials text[], title_words integer,
                                            departure_words integer, shared_only boolean, sort text,
                                            walk integer, skip integer, up_to integer)
        """ + "\n" + searchPageWordsBody()
        + "\n" + searchPageOrders(using: "caller, needles, skip, up_to, walk, initials", selected: "selected")

    /// What follows `runnect_search_page`'s arguments since version 10: its result, settings,
    /// declarations (with `declared` added) and the `matching` and `selected` texts of its keywords.
    static func searchPageWordsBody(declared: String = "") -> String {
        """
        RETURNS TABLE (id bigint, created_ms bigint, title text, description text, departure text,
                       scrap_count integer, distance_m float8, in_title integer, in_departure integer)
        LANGUAGE plpgsql STABLE SECURITY DEFINER
        SET search_path = public, pg_temp SET enable_seqscan = off SET max_parallel_workers_per_gather = 0
        SET jit = off AS $$
        DECLARE
        \(searchPageCaller)\(declared)
            word_count integer := coalesce(array_length(needles, 1), 0);
            in_field text[];
            title_tests text[] := '{}';
            departure_tests text[] := '{}';
            -- Whether `strpos` decides every keyword (none mixed): then the rows are exact
            -- matches and their counts exact, and their texts are not sent.
            exact boolean := true;
            selected text;
            field text;
            ordered text;
            page text;
            clause text;
        BEGIN
            IF coalesce(array_length(initials, 1), 0) <> word_count THEN
                RAISE EXCEPTION 'runnect_search_page: % needles, % initials', word_count,
                    coalesce(array_length(initials, 1), 0);
            END IF;
        \(searchPageClauses);
            -- Keyword i in each field: its needles there (the field names are this text's own).
            FOR i IN 1 .. word_count LOOP
                IF needles[i] IS NULL AND initials[i] IS NULL THEN
                    RAISE EXCEPTION 'runnect_search_page: keyword % has no needle', i;
                END IF;
                exact := exact AND (needles[i] IS NULL OR initials[i] IS NULL);
                in_field := '{}';
                FOREACH field IN ARRAY ARRAY['title', 'description', 'departure'] LOOP
                    in_field := in_field || concat_ws(' AND ',
                        CASE WHEN needles[i] IS NOT NULL THEN format('strpos(s.%s, $2[%s]) > 0', field, i) END,
                        CASE WHEN initials[i] IS NOT NULL
                             THEN format('strpos(s.%s_initials, $6[%s]) > 0', field, i) END);
                END LOOP;
                matching := matching || ' AND ((' || array_to_string(in_field, ') OR (') || '))';
                title_tests := title_tests || format('(%s)::int', in_field[1]);
                departure_tests := departure_tests || format('(%s)::int', in_field[3]);
            END LOOP;
            IF title_words > 0 AND word_count > 0 THEN
                matching := matching || format(' AND (%s) >= %s', array_to_string(title_tests, ' + '), title_words);
            END IF;
            IF departure_words > 0 AND word_count > 0 THEN
                matching := matching
                    || format(' AND (%s) >= %s', array_to_string(departure_tests, ' + '), departure_words);
            END IF;
            selected := 'SELECT s.course_id, s.created_ms, ' || CASE WHEN exact
                    THEN 'NULL::text, NULL::text, NULL::text' ELSE 's.title, s.description, s.departure' END
                || ', s.scrap_count, s.distance_m, ' || CASE WHEN word_count = 0 THEN '0, 0'
                    ELSE array_to_string(title_tests, ' + ') || ', ' || array_to_string(departure_tests, ' + ') END
                || ' FROM (';
        """
    }
}
