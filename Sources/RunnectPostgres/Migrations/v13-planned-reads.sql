-- PostgreSQL schema version 13 (v13-planned-reads), as shipped: never edit this file; add a new version.
-- PostgresSchema runs its statements in order, each on its own (a statement ends at a
-- semicolon outside quotes, dollar quotes and comments).
--
-- Version 13: `runnect_courses` (`coursesFunction`) and `runnect_search_estimate(tokens)`,
-- the planner's estimate of the search entries holding any of `tokens` when the table's
-- statistics know a frequency of theirs (else null), for a search to choose its first read
-- by (`PostgresTransaction.readsFirst(_:tier:wanted:)`).
--
-- Why: at a million courses `ㅇㄹㅍ` (relevance) walked the 1,024 newest entries, 2 ms of
-- its 9 on the server, only to learn that its top tier (1,549 entries, its one `b` token) was
-- too rare to fill a page there, and then read that tier from the GIN index. The estimate
-- (1,537, from the token's frequency in the table's statistics) tells as much in 0.3 ms
-- (`runnect-bench pg search`, statement log, 2026-11-27).
--
-- A function of the tables' owner, so that the estimate counts every entry the read will
-- fetch from the table, not only those the caller may read: a runner's own `EXPLAIN`
-- would scale it by row-level security's share of readable entries. It tells no more than
-- `pg_stats` already shows a runner of this table (its tokens' frequencies). `EXPLAIN`
-- plans the count and never runs it; without JIT, which a plan this costly would otherwise
-- compile on every call. Volatile, as PostgreSQL runs `EXPLAIN` in no other function.
--
-- A token the statistics do not list among the table's most common elements gets the
-- planner's guess for any such token (half the least common frequency listed: 508 entries at
-- a million, for `송파구`'s top tier, which has none): null, not a figure to read by. The
-- guess is planned once a connection and kept in the session setting
-- `runnect.unknown_token_estimate` (a stale one, after an `ANALYZE`, only changes which read
-- comes first).
--
-- Version 16 replaces the estimate (`readableEstimateStatements`): it told a runner of
-- other runners' private entries, and its setting was the runner's to set.

CREATE FUNCTION runnect_search_estimate(tokens text[]) RETURNS double precision
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public, pg_temp SET jit = off SET max_parallel_workers_per_gather = 0 AS $$
DECLARE
    plan json;
    estimate double precision;
    unknown double precision := nullif(current_setting('runnect.unknown_token_estimate', true), '');
BEGIN
    EXECUTE 'EXPLAIN (FORMAT JSON) SELECT 1 FROM course_search s WHERE s.tokens && $1' INTO plan USING tokens;
    estimate := (plan -> 0 -> 'Plan' ->> 'Plan Rows')::double precision;
    IF unknown IS NULL THEN
        -- What the planner guesses for a token it has no frequency of ('-' is none).
        EXECUTE 'EXPLAIN (FORMAT JSON) SELECT 1 FROM course_search s WHERE s.tokens && $1' INTO plan
            USING ARRAY['-'];
        unknown := (plan -> 0 -> 'Plan' ->> 'Plan Rows')::double precision;
        PERFORM set_config('runnect.unknown_token_estimate', unknown::text, false);
    END IF;
    RETURN CASE WHEN estimate > unknown THEN estimate END;
END $$;

REVOKE ALL ON FUNCTION runnect_search_estimate(text[]) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION runnect_search_estimate(text[]) TO runnect_runner;

CREATE FUNCTION runnect_courses(viewer text, ids bigint[])
RETURNS TABLE (id bigint, owner text, title text, description text, departure_region text,
               departure_city text, departure_town text, departure_detail text, departure_name text,
               source_format text, content_hash text, stats text, created_at timestamptz,
               is_uploaded boolean, uploaded_at timestamptz, scrap_count integer, is_scrapped boolean)
LANGUAGE plpgsql STABLE SET search_path = public, pg_temp AS $$
BEGIN
    RETURN QUERY
    SELECT c.id, c.owner, c.title, c.description, c.departure_region, c.departure_city, c.departure_town,
           c.departure_detail, c.departure_name, c.source_format, c.content_hash, c.stats::text, c.created_at,
           c.is_uploaded, c.uploaded_at, c.scrap_count,
           EXISTS (SELECT 1 FROM scrap x WHERE x.course_id = c.id AND x."user" = viewer)
    FROM course c WHERE c.id = ANY(ids);
END $$;

REVOKE ALL ON FUNCTION runnect_courses(text, bigint[]) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION runnect_courses(text, bigint[]) TO runnect_runner;
