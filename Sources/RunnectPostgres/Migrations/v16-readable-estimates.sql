-- PostgreSQL schema version 16 (v16-readable-estimates), as shipped: never edit this file; add a new version.
-- PostgresSchema runs its statements in order, each on its own (a statement ends at a
-- semicolon outside quotes, dollar quotes and comments).
--
-- Version 16: `runnect_search_estimate(tokens, up_to)` counts the search entries holding any
-- of `tokens` that the caller may read (shared, or their own), up to `up_to + 1`, in place of
-- version 13's planner estimate over every entry.
--
-- Why: version 13's estimate came from the table's statistics, which count every entry:
-- another runner's private titles showed in it (a runner cannot read `pg_stats` of a table
-- under row-level security, so it told more than `pg_stats` does), and its threshold for an
-- unknown token was a session setting (`runnect.unknown_token_estimate`) the runner could
-- set. The count tells only what the runner may read (and could count by searching), and
-- reads no setting but the caller's role, as the search functions do.
--
-- A function of the tables' owner, which tests the caller's access itself, as
-- `runnect_search_page` does: under row-level security the token test (`&&`, not leakproof)
-- cannot use the GIN index, and the count read the whole table (126 ms for a token no entry
-- holds at 200,000 entries). `EXECUTE` plans it with the tokens, so that a rare token is
-- read from the GIN index and a common one walked until `up_to + 1` are found. As the
-- runner `estrunner` on 200,000 synthetic entries (2026-11-28, `pgbench`, 30 calls): 0.2 ms
-- for a token in 10 entries, 0.3 in 100, 1.5 in 1,000, 2.4–3.6 past 2,000; version 13's
-- took 0.2–0.4 ms. A search asks it once a token while the table's size stays the same
-- (`PostgresSearchEstimates`).

DROP FUNCTION runnect_search_estimate(text[]);

CREATE FUNCTION runnect_search_estimate(tokens text[], up_to bigint) RETURNS double precision
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = public, pg_temp SET jit = off SET max_parallel_workers_per_gather = 0 AS $$
DECLARE
    caller text := CASE current_setting('role') WHEN 'none' THEN session_user::text
                        ELSE current_setting('role') END;
    found double precision;
BEGIN
    EXECUTE 'SELECT count(*)::double precision FROM (SELECT 1 FROM course_search s '
        || 'WHERE (s.is_uploaded OR s.owner = $3) AND s.tokens && $1 LIMIT $2 + 1) m'
        INTO found USING tokens, up_to, caller;
    RETURN found;
END $$;

REVOKE ALL ON FUNCTION runnect_search_estimate(text[], bigint) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION runnect_search_estimate(text[], bigint) TO runnect_runner;
