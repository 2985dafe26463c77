extension PostgresSchema {
    /// Version 3: the search's grams through a GIN index on `course_search.tokens`, in place of
    /// version 1's posting table `course_search_token (token, course_id)`.
    ///
    /// Why: the postings were a B-tree of a row per gram and course (about 200 a course), which
    /// every insert wrote row by row through a trigger, and the candidate function grouped every
    /// posting of a keyword's grams before its `LIMIT`, so a query took 300 ms–1.3 s on 100,000
    /// courses (`runnect-bench pg search`, 2026-11-25). A GIN index keeps each gram's courses as
    /// one compressed list and answers `tokens @> grams` by intersecting them.
    ///
    /// The candidates still come from a `SECURITY DEFINER` function of the tables' owner, with
    /// the visibility test of the policies written in it: in a runner's own query, row-level
    /// security keeps `@>` (not leakproof) out of index scans, and every search was a
    /// sequential scan (1–3 s on 100,000 courses, measured).
    static let searchGINStatements: [String] = [
        "DROP FUNCTION runnect_search_candidates(text[], boolean, integer)",
        "DROP TRIGGER course_search_postings ON course_search",
        "DROP FUNCTION runnect_search_postings()",
        "DROP TABLE course_search_token",
        "CREATE INDEX course_search_tokens ON course_search USING gin (tokens)",
        // What `search --all` walks in scrap and distance order (the shared lists have theirs).
        "CREATE INDEX course_scraps ON course (scrap_count, created_at, id)",
        "CREATE INDEX course_distance ON course (distance_m, id)",
        searchCandidatesGINFunction,
        "REVOKE ALL ON FUNCTION runnect_search_candidates(text[], boolean, integer) FROM PUBLIC",
        "GRANT EXECUTE ON FUNCTION runnect_search_candidates(text[], boolean, integer) TO \(runnerGroup)",
        nearbyFunction,
        "REVOKE ALL ON FUNCTION runnect_nearby(float8, float8, float8, text, integer) FROM PUBLIC",
        "GRANT EXECUTE ON FUNCTION runnect_nearby(float8, float8, float8, text, integer) TO \(runnerGroup)",
    ]

    /// The first `up_to` courses of `scope` whose path passes within `radius` metres of the
    /// point, in the GiST index's nearest-first order (`<->`, on a sphere), with their distance
    /// on the ellipsoid (`ST_Distance`) and on the sphere: near-me search's candidates, among the
    /// courses the caller may read.
    ///
    /// A function of the tables' owner for the same reason as `runnect_search_candidates`:
    /// in a runner's own query row-level security keeps `ST_DWithin` and `<->` (not leakproof)
    /// out of the index, and every near-me search read the whole table (2 s on 100,000
    /// courses, measured). `scope` is `shared`, `all`, `mine`, `mine-shared`, `mine-private`
    /// or `scrapped`; the caller is found as in `runnect_search_candidates`.
    static let nearbyFunction = """
        CREATE FUNCTION runnect_nearby(lon float8, lat float8, radius float8, scope text, up_to integer)
        RETURNS TABLE (id bigint, meters float8, sphere float8)
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
            SELECT c.id, ST_Distance(c.path, \(nearbyPoint)), c.path <-> \(nearbyPoint)
            FROM course c
            WHERE ST_DWithin(c.path, \(nearbyPoint), radius) AND \(nearbyScopeTest)
            ORDER BY c.path <-> \(nearbyPoint)
            LIMIT up_to
        $$
        """

    /// The point of `runnect_nearby`, from its arguments.
    static let nearbyPoint = "ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography"

    /// `runnect_nearby`'s test of a course `c`: one the caller may read (the policies' test,
    /// written out: the function is its owner's), in its `scope`.
    static let nearbyScopeTest: String = {
        let caller = "CASE current_setting('role') WHEN 'none' THEN session_user::text ELSE current_setting('role') END"
        return """
            (c.is_uploaded OR c.owner = \(caller))
              AND CASE scope
                    WHEN 'shared' THEN c.is_uploaded
                    WHEN 'all' THEN true
                    WHEN 'mine' THEN c.owner = \(caller)
                    WHEN 'mine-shared' THEN c.owner = \(caller) AND c.is_uploaded
                    WHEN 'mine-private' THEN c.owner = \(caller) AND NOT c.is_uploaded
                    WHEN 'scrapped' THEN EXISTS (
                        SELECT 1 FROM scrap x WHERE x.course_id = c.id AND x."user" = \(caller))
                    ELSE false
                  END
            """
    }()

    /// Up to `up_to` ids of the courses whose entry meets every clause, among those the caller
    /// may read (shared, or their own unless `shared_only`): a superset of the matches, which the
    /// store checks against their text.
    ///
    /// A clause is token lists separated by `|`, tokens by a space, and is met when one of its
    /// lists is wholly in `tokens` (`@>`, through the GIN index). Tokens are the index's own
    /// `[0-9a-z]` (anything else is refused), never what the user typed, and enter the query as
    /// quoted literals. The caller is the role that called (`SET ROLE` included), not the
    /// function's owner: the `role` setting, which only a member of the role can set, else the
    /// session's user. Sequential scans are off in it: the planner prices `@>` on a row's
    /// tokens (about 150, often compressed) as one operator, and read a common keyword's first
    /// 2,000 matches off the table (170 ms on 100,000 courses) rather than the index's lists.
    static let searchCandidatesGINFunction = """
        CREATE FUNCTION runnect_search_candidates(clauses text[], shared_only boolean, up_to integer)
        RETURNS SETOF bigint LANGUAGE plpgsql STABLE SECURITY DEFINER
        SET search_path = public, pg_temp SET enable_seqscan = off AS $$
        DECLARE
            caller text := CASE current_setting('role') WHEN 'none' THEN session_user::text
                           ELSE current_setting('role') END;
            query text := 'SELECT s.course_id FROM course_search s '
                || 'WHERE (s.is_uploaded OR (NOT $1 AND s.owner = $2))';
            clause text;
        BEGIN
            FOREACH clause IN ARRAY clauses LOOP
                IF clause !~ '^[0-9a-z |]*$' THEN
                    RAISE EXCEPTION 'runnect_search_candidates: a clause holds more than tokens';
                END IF;
                query := query || ' AND (' || (
                    SELECT string_agg('s.tokens @> ' || quote_literal(string_to_array(list, ' ')::text) || '::text[]',
                                      ' OR ')
                    FROM unnest(string_to_array(clause, '|')) AS list) || ')';
            END LOOP;
            RETURN QUERY EXECUTE query || ' LIMIT $3' USING shared_only, caller, up_to;
        END $$
        """
}
