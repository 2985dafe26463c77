-- PostgreSQL schema version 19 (v19-course-starts), as shipped: never edit this file; add a new version.
-- PostgresSchema runs its statements in order, each on its own (a statement ends at a
-- semicolon outside quotes, dollar quotes and comments).
--
-- Version 19: the courses a run may be a record of, found through the `course_start` GiST
-- index when a runner's own role asks.
--
-- Matching a run (`runnect import`, `POST /api/record/run`) asks for the courses starting in
-- a box of the run's corridor whose finish lies in the run's box, every box in one call. Asked by a runner's role,
-- row-level security came first and PostGIS's `&&` (not LEAKPROOF) could not be pushed below
-- it: every box read the whole `course` table (at 100,000 courses, a 10 km run's boxes took
-- 20 s a run through `runnect serve`). `runnect_course_starts` asks as the tables' owner, as
-- `runnect_nearby_box` does (version 9), and keeps what the caller may see itself: their own
-- courses, shared ones, and the ones they scrapped, the rows the store's `canSee` admits.
CREATE FUNCTION runnect_course_starts(west float8[], south float8[], east float8[], north float8[],
                   finish_lat_min float8, finish_lat_max float8, finish_lon_min float8, finish_lon_max float8)
RETURNS TABLE (id bigint, start_lat float8, start_lon float8, finish_lat float8, finish_lon float8, path_m float8)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = public, pg_temp SET max_parallel_workers_per_gather = 0 SET jit = off AS $$
    SELECT c.id, c.start_lat, c.start_lon, c.finish_lat, c.finish_lon, c.path_m
    FROM course c
    WHERE c.id IN (
            SELECT s.id FROM unnest(west, south, east, north) AS b(w, s, e, n)
            JOIN course s ON s.start_point && ST_MakeEnvelope(b.w, b.s, b.e, b.n, 4326))
      AND c.finish_lat BETWEEN finish_lat_min AND finish_lat_max
      AND c.finish_lon BETWEEN finish_lon_min AND finish_lon_max
      AND c.path_m IS NOT NULL
      AND (c.is_uploaded
           OR c.owner = CASE current_setting('role') WHEN 'none' THEN session_user::text ELSE current_setting('role') END
           OR EXISTS (SELECT 1 FROM scrap x WHERE x.course_id = c.id AND x."user" =
                  CASE current_setting('role') WHEN 'none' THEN session_user::text ELSE current_setting('role') END))
$$;

REVOKE ALL ON FUNCTION runnect_course_starts(float8[], float8[], float8[], float8[], float8, float8, float8, float8) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION runnect_course_starts(float8[], float8[], float8[], float8[], float8, float8, float8, float8) TO runnect_runner;
