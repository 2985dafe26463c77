-- PostgreSQL schema version 5 (v5-search-pages), as shipped: never edit this file; add a new version.
-- PostgresSchema runs its statements in order, each on its own (a statement ends at a
-- semicolon outside quotes, dollar quotes and comments).
--
-- Version 5: a search reads its answer in order from the server, a page at a time, through
-- `runnect_search_page`, in place of version 3's `runnect_search_candidates`.
--
-- Why: version 3's function only told which courses *might* match, up to 2,000 of them; the
-- store then read those rows again under row-level security and sorted them, or, for a
-- common keyword, walked an index through a cursor, testing `@>` on every row it read (RLS
-- keeps that operator out of the runner's index scans). Both cost tens of milliseconds on
-- 100,000 courses (`runnect-bench pg search`, 2026-11-25: p50 27 ms, p95 85 ms): the
-- candidates' rows were fetched twice, and the walks ran without the GIN index. In a
-- function of the tables' owner the planner has both the GIN index and the ordered B-trees
-- and picks per query: walk the order's index while the keyword is common, intersect the
-- GIN lists and sort when it is rare, 1 ms where the two steps took 90.

DROP FUNCTION runnect_search_candidates(text[], boolean, integer);

ALTER TABLE course_search ALTER COLUMN tokens SET STATISTICS 1000;

CREATE FUNCTION runnect_search_page(clauses text[], needles text[], title_needles integer,
                                    departure_needles integer, shared_only boolean, sort text,
                                    walk integer, skip integer, up_to integer)
RETURNS TABLE (id bigint, created_ms bigint, title text, description text, departure text,
               scrap_count integer, distance_m float8)
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = public, pg_temp SET enable_seqscan = off SET max_parallel_workers_per_gather = 0 AS $$
DECLARE
    caller text := CASE current_setting('role') WHEN 'none' THEN session_user::text
                   ELSE current_setting('role') END;
    -- The entries the caller may read (`owner` and `is_uploaded` mirror the course's).
    readable text := CASE WHEN shared_only THEN 's.is_uploaded' ELSE '(s.is_uploaded OR s.owner = $1)' END;
    matching text := 'true';
    needle_count integer := coalesce(array_length(needles, 1), 0);
    ordered text;
    page text;
    clause text;
BEGIN
    FOREACH clause IN ARRAY clauses LOOP
        IF clause !~ '^[0-9a-z |]*$' THEN
            RAISE EXCEPTION 'runnect_search_page: a clause holds more than tokens';
        END IF;
        matching := matching || ' AND (' || CASE WHEN position(' ' IN clause) = 0
            THEN 's.tokens && ' || quote_literal(string_to_array(clause, '|')::text) || '::text[]'
            ELSE (SELECT string_agg('s.tokens @> ' || quote_literal(string_to_array(list, ' ')::text)
                                    || '::text[]', ' OR ')
                  FROM unnest(string_to_array(clause, '|')) AS list) END || ')';
    END LOOP;
    FOR i IN 1 .. needle_count LOOP
        matching := matching || format(
            ' AND (strpos(s.title, $2[%1$s]) > 0 OR strpos(s.description, $2[%1$s]) > 0'
            || ' OR strpos(s.departure, $2[%1$s]) > 0)', i);
    END LOOP;
    IF title_needles > 0 AND needle_count > 0 THEN
        matching := matching || ' AND (' || (SELECT string_agg(format('(strpos(s.title, $2[%s]) > 0)::int', i),
            ' + ') FROM generate_series(1, needle_count) AS i) || format(') >= %s', title_needles);
    END IF;
    IF departure_needles > 0 AND needle_count > 0 THEN
        matching := matching || ' AND (' || (SELECT string_agg(format('(strpos(s.departure, $2[%s]) > 0)::int', i),
            ' + ') FROM generate_series(1, needle_count) AS i) || format(') >= %s', departure_needles);
    END IF;
    ordered := CASE sort
        WHEN 'date' THEN 's.created_ms DESC, s.course_id DESC'
        WHEN 'scrap' THEN 's.scrap_count DESC, s.created_at DESC, s.course_id DESC'
        WHEN 'distance' THEN 's.distance_m, s.course_id'
    END;
    IF ordered IS NULL THEN
        RAISE EXCEPTION 'runnect_search_page: no sort %', quote_literal(sort);
    END IF;
    -- The entries in order, as `s`: the first `walk` readable ones through the order's
    -- index (the shared lists' own when shared_only), the matching ones among them; or
    -- every match the GIN index finds, sorted (`OFFSET 0` keeps the planner from
    -- walking the order's index instead). A date page needs nothing of the course (its
    -- scrap count and distance are left 0); the other orders are the course's, so they
    -- walk course's index and join each entry.
    IF sort = 'date' THEN
        page := 'SELECT * FROM ' || CASE WHEN walk IS NULL
            THEN '(SELECT * FROM course_search s WHERE ' || readable || ' AND ' || matching || ' OFFSET 0) s'
            ELSE '(SELECT * FROM course_search s WHERE ' || readable || ' ORDER BY ' || ordered
                 || ' LIMIT $5) s WHERE ' || matching END;
        page := 'SELECT s.course_id, s.created_ms, s.title, s.description, s.departure, 0, 0::float8 FROM ('
            || page || ' ORDER BY ' || ordered || ' OFFSET $3 LIMIT $4) s ORDER BY ' || ordered;
    ELSE
        page := 'SELECT s.*, c.scrap_count, c.distance_m, c.created_at FROM course c '
            || 'JOIN course_search s ON s.course_id = c.id WHERE ' || readable
            || CASE WHEN shared_only THEN ' AND c.is_uploaded' ELSE '' END;
        page := CASE WHEN walk IS NULL THEN '(' || page || ' AND ' || matching || ' OFFSET 0) s'
            ELSE '(' || page || ' ORDER BY ' || replace(replace(ordered, 's.', 'c.'), 'c.course_id', 'c.id')
                 || ' LIMIT $5) s WHERE ' || matching END;
        page := 'SELECT s.course_id, s.created_ms, s.title, s.description, s.departure, s.scrap_count, '
            || 's.distance_m FROM ' || page || ' ORDER BY ' || ordered || ' OFFSET $3 LIMIT $4';
    END IF;
    RETURN QUERY EXECUTE page USING caller, needles, skip, up_to, walk;
END $$;

REVOKE ALL ON FUNCTION runnect_search_page(text[], text[], integer, integer, boolean, text, integer, integer, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION runnect_search_page(text[], text[], integer, integer, boolean, text, integer, integer, integer) TO runnect_runner;
