-- PostgreSQL schema version 3 (v3-search-gin), as shipped: never edit this file; add a new version.
-- PostgresSchema runs its statements in order, each on its own (a statement ends at a
-- semicolon outside quotes, dollar quotes and comments).
--
-- Version 3: the search's grams through a GIN index on `course_search.tokens`, in place of
-- version 1's posting table `course_search_token (token, course_id)`.
--
-- Why: the postings were a B-tree of a row per gram and course (about 200 a course), which
-- every insert wrote row by row through a trigger, and the candidate function grouped every
-- posting of a keyword's grams before its `LIMIT`, so a query took 300 ms–1.3 s on 100,000
-- courses (`runnect-bench pg search`, 2026-11-25). A GIN index keeps each gram's courses as
-- one compressed list and answers `tokens @> grams` by intersecting them.
--
-- The candidates still come from a `SECURITY DEFINER` function of the tables' owner, with
-- the visibility test of the policies written in it: in a runner's own query, row-level
-- security keeps `@>` (not leakproof) out of index scans, and every search was a
-- sequential scan (1–3 s on 100,000 courses, measured).

DROP FUNCTION runnect_search_candidates(text[], boolean, integer);

DROP TRIGGER course_search_postings ON course_search;

DROP FUNCTION runnect_search_postings();

DROP TABLE course_search_token;

CREATE INDEX course_search_tokens ON course_search USING gin (tokens);

CREATE INDEX course_scraps ON course (scrap_count, created_at, id);

CREATE INDEX course_distance ON course (distance_m, id);

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
END $$;

REVOKE ALL ON FUNCTION runnect_search_candidates(text[], boolean, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION runnect_search_candidates(text[], boolean, integer) TO runnect_runner;

CREATE FUNCTION runnect_nearby(lon float8, lat float8, radius float8, scope text, up_to integer)
RETURNS TABLE (id bigint, meters float8, sphere float8)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT c.id, ST_Distance(c.path, ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography), c.path <-> ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography
    FROM course c
    WHERE ST_DWithin(c.path, ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography, radius) AND (c.is_uploaded OR c.owner = CASE current_setting('role') WHEN 'none' THEN session_user::text ELSE current_setting('role') END)
  AND CASE scope
        WHEN 'shared' THEN c.is_uploaded
        WHEN 'all' THEN true
        WHEN 'mine' THEN c.owner = CASE current_setting('role') WHEN 'none' THEN session_user::text ELSE current_setting('role') END
        WHEN 'mine-shared' THEN c.owner = CASE current_setting('role') WHEN 'none' THEN session_user::text ELSE current_setting('role') END AND c.is_uploaded
        WHEN 'mine-private' THEN c.owner = CASE current_setting('role') WHEN 'none' THEN session_user::text ELSE current_setting('role') END AND NOT c.is_uploaded
        WHEN 'scrapped' THEN EXISTS (
            SELECT 1 FROM scrap x WHERE x.course_id = c.id AND x."user" = CASE current_setting('role') WHEN 'none' THEN session_user::text ELSE current_setting('role') END)
        ELSE false
      END
    ORDER BY c.path <-> ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography
    LIMIT up_to
$$;

REVOKE ALL ON FUNCTION runnect_nearby(float8, float8, float8, text, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION runnect_nearby(float8, float8, float8, text, integer) TO runnect_runner;
