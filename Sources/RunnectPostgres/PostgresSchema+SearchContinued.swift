extension PostgresSchema {
    /// Version 11: `runnect_search_page` reads on from a row already seen (`after_id` and its
    /// order's keys), so that a walk that came up short walks on from where the last one ended
    /// instead of walking the same entries again, four times as far.
    ///
    /// Why: at a million courses `a` (every course, relevance) walked its 1,024 newest readable
    /// entries, found too few of its top tier there, and walked 4,096 from the newest again for
    /// the rest (3.7 ms, schema 10's statement log), a quarter of them rows already seen. A walk
    /// on now starts past the last match seen and is as long as the density found says the rest
    /// needs (twice the rows expected, at least the first walk's, at most three times it).
    static let searchContinuedStatements: [String] = [
        "DROP FUNCTION runnect_search_page(\(searchPageArguments))",
        searchPageContinuedFunction,
        "REVOKE ALL ON FUNCTION runnect_search_page(\(searchPageContinuedArguments)) FROM PUBLIC",
        "GRANT EXECUTE ON FUNCTION runnect_search_page(\(searchPageContinuedArguments)) TO \(runnerGroup)",
    ]

    /// `runnect_search_page`'s argument types since version 11.
    static let searchPageContinuedArguments = searchPageArguments + ", bigint, bigint, integer, double precision"

    /// Version 10's function (which see) with four more arguments, each null by default: with
    /// `after_id`, only the rows after that course in the order `sort` are read, the course's own
    /// keys in that order given beside its id (`after_created_ms`, and `after_scrap_count` for
    /// scrap order, `after_distance_m` for distance order), as the caller read them. A walk then
    /// starts there, through the order's index; a read of the GIN index's matches leaves out those
    /// before it. The keys enter only as bound parameters (`$7` to `$10`), and a missing one is
    /// refused.
    static let searchPageContinuedFunction =
        """
        CREATE FUNCTION runnect_search_page(clauses text[], needles text[], initials text[], title_words integer,
                                            departure_words integer, shared_only boolean, sort text,
                                            walk integer, skip integer, up_to integer,
                                            after_id bigint DEFAULT NULL, after_created_ms bigint DEFAULT NULL,
                                            after_scrap_count integer DEFAULT NULL,
                                            after_distance_m double precision DEFAULT NULL)
        """ + "\n" + searchPageWordsBody(declared: "\n    after text := '';") + "\n" + """
                IF after_id IS NOT NULL THEN
                    IF after_created_ms IS NULL OR (sort = 'scrap' AND after_scrap_count IS NULL)
                       OR (sort = 'distance' AND after_distance_m IS NULL) THEN
                        RAISE EXCEPTION 'runnect_search_page: the keys of course % in % order are missing', after_id,
                            quote_literal(sort);
                    END IF;
                    -- Rows past the one seen, in the order's own terms (a row comparison the order's
                    -- index bounds its scan by).
                    after := CASE sort
                        WHEN 'scrap' THEN ' AND (s.scrap_count, s.created_ms, s.course_id) < ($9, $8, $7)'
                        WHEN 'distance' THEN ' AND (s.distance_m, s.course_id) > ($10, $7)'
                        ELSE ' AND (s.created_ms, s.course_id) < ($8, $7)' END;
                END IF;
                readable := readable || after;
            """ + "\n"
        + searchPageOrders(
            using:
                "caller, needles, skip, up_to, walk, initials, after_id, after_created_ms, after_scrap_count, "
                + "after_distance_m",
            selected: "selected")
}
