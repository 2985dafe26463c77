-- PostgreSQL schema version 8 (v8-search-orders), as shipped: never edit this file; add a new version.
-- PostgresSchema runs its statements in order, each on its own (a statement ends at a
-- semicolon outside quotes, dollar quotes and comments).
--
-- Version 8: a search entry carries its course's scrap count and distance, so that a search
-- in scrap or distance order walks the entries' own index, as one newest first always did.
--
-- Why: `runnect_search_page` walked `course`'s index in those orders and joined each course
-- to its entry, two rows read at random for every course walked; at 1,000,000 courses
-- (`runnect-bench pg search`, 2026-11-25) the distance-order walks (`야경`, `10k`,
-- `석촌호수`) took 13–17 ms at p95 where the newest-first walks took 5–7.
--
-- A new entry takes both from its course (the trigger that already gives it the owner and
-- sharing); the scrap counter's trigger counts in both rows. `course_scraps` and
-- `course_distance`, which only `search --all` walked, are dropped; the shared lists keep
-- `course`'s own indexes.

ALTER TABLE course_search ADD COLUMN scrap_count integer NOT NULL DEFAULT 0,
                          ADD COLUMN distance_m double precision NOT NULL DEFAULT 0;

UPDATE course_search s SET scrap_count = c.scrap_count, distance_m = c.distance_m
FROM course c WHERE c.id = s.course_id;

CREATE INDEX course_search_scraps ON course_search (scrap_count, created_ms, course_id);

CREATE INDEX course_search_shared_scraps ON course_search (scrap_count, created_ms, course_id) WHERE is_uploaded;

CREATE INDEX course_search_distance ON course_search (distance_m, course_id);

CREATE INDEX course_search_shared_distance ON course_search (distance_m, course_id) WHERE is_uploaded;

DROP INDEX course_scraps;

DROP INDEX course_distance;

CREATE OR REPLACE FUNCTION runnect_search_entry_added() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    SELECT owner, is_uploaded, scrap_count, distance_m
    INTO NEW.owner, NEW.is_uploaded, NEW.scrap_count, NEW.distance_m
    FROM course WHERE id = NEW.course_id;
    RETURN NEW;
END $$;

CREATE OR REPLACE FUNCTION runnect_count_scraps() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    counted bigint := CASE TG_OP WHEN 'INSERT' THEN NEW.course_id ELSE OLD.course_id END;
    change integer := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
BEGIN
    UPDATE course SET scrap_count = scrap_count + change WHERE id = counted;
    UPDATE course_search SET scrap_count = scrap_count + change WHERE course_id = counted;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION runnect_search_page(clauses text[], needles text[], title_needles integer,
                                    departure_needles integer, shared_only boolean, sort text,
                                    walk integer, skip integer, up_to integer)
RETURNS TABLE (id bigint, created_ms bigint, title text, description text, departure text,
               scrap_count integer, distance_m float8)
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = public, pg_temp SET enable_seqscan = off SET max_parallel_workers_per_gather = 0 SET jit = off AS $$
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
        WHEN 'scrap' THEN 's.scrap_count DESC, s.created_ms DESC, s.course_id DESC'
        WHEN 'distance' THEN 's.distance_m, s.course_id'
    END;
    IF ordered IS NULL THEN
        RAISE EXCEPTION 'runnect_search_page: no sort %', quote_literal(sort);
    END IF;
    -- The entries in order, as `s`: the first `walk` readable ones through the order's
    -- index (the shared entries' own when shared_only), the matching ones among them; or
    -- every match the GIN index finds, sorted (`OFFSET 0` keeps the planner from
    -- walking the order's index instead).
    page := 'SELECT * FROM ' || CASE WHEN walk IS NULL
        THEN '(SELECT * FROM course_search s WHERE ' || readable || ' AND ' || matching || ' OFFSET 0) s'
        ELSE '(SELECT * FROM course_search s WHERE ' || readable || ' ORDER BY ' || ordered
             || ' LIMIT $5) s WHERE ' || matching END;
    page := 'SELECT s.course_id, s.created_ms, s.title, s.description, s.departure, s.scrap_count, '
        || 's.distance_m FROM (' || page || ' ORDER BY ' || ordered || ' OFFSET $3 LIMIT $4) s ORDER BY '
        || ordered;
    RETURN QUERY EXECUTE page USING caller, needles, skip, up_to, walk;
END $$;
