-- PostgreSQL schema version 6 (v6-nearby-rings), as shipped: never edit this file; add a new version.
-- PostgresSchema runs its statements in order, each on its own (a statement ends at a
-- semicolon outside quotes, dollar quotes and comments).
--
-- Version 6: near-me search reads the path pieces by growing rings (`runnect_nearby_ring`),
-- as on SQLite, in place of version 4's nearest-first walk of the GiST index
-- (`runnect_nearby`); keyword + near measures its matches through their pieces
-- (`runnect_course_distances`); and the search's page function is kept from JIT compilation.
--
-- Why: in central Seoul at 1,000,000 courses (`runnect-bench pg near 1000000`, 2026-11-25)
-- about 950 pieces' boxes hold the point itself, so the nearest-first walk (`<->` on
-- `geography`) visited some 2,200 index pages and measured each of their entries on the
-- sphere, 35–50 ms to its first 80 pieces with every page in memory; the same pages read for
-- box overlap (`&&`) take a fifth of that. A ring of 25 m there holds 846 boxes, 190 pieces
-- within it, and its page of 20 courses took 14 ms, measured on the ellipsoid and tested for
-- the scope only for the courses within the ring.
--
-- And all three functions run without JIT compilation: at a million courses the planner's costs
-- pass `jit_above_cost`, and compiling a query's expressions took about 6 ms, more than
-- most searches themselves take (a page of a common keyword's walk, about 1 ms).

DROP FUNCTION runnect_nearby(float8, float8, float8, text, integer);

CREATE FUNCTION runnect_nearby_ring(lon float8, lat float8, ring float8, scope text, up_to integer)
RETURNS TABLE (id bigint, meters float8)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = public, pg_temp SET max_parallel_workers_per_gather = 0 SET jit = off AS $$
    SELECT near.course_id, near.meters
    FROM (SELECT p.course_id, min(ST_Distance(p.path, ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography)) AS meters
          FROM course_piece p
          WHERE p.path && _ST_Expand(ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography, ring)
          GROUP BY p.course_id) near
    JOIN course c ON c.id = near.course_id
    WHERE near.meters <= ring AND (c.is_uploaded OR c.owner = CASE current_setting('role') WHEN 'none' THEN session_user::text ELSE current_setting('role') END)
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
    ORDER BY near.meters, near.course_id
    LIMIT up_to
$$;

REVOKE ALL ON FUNCTION runnect_nearby_ring(float8, float8, float8, text, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION runnect_nearby_ring(float8, float8, float8, text, integer) TO runnect_runner;

ALTER FUNCTION runnect_search_page(text[], text[], integer, integer, boolean, text, integer, integer, integer) SET jit = off;

CREATE FUNCTION runnect_course_distances(ids bigint[], lon float8, lat float8, radius float8)
RETURNS TABLE (id bigint, meters float8)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = public, pg_temp SET max_parallel_workers_per_gather = 0 SET jit = off AS $$
    SELECT near.course_id, near.meters
    FROM (SELECT p.course_id, min(ST_Distance(p.path, ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography)) AS meters
          FROM (SELECT course_id, path FROM course_piece WHERE course_id = ANY(ids) OFFSET 0) p
          WHERE p.path && _ST_Expand(ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography, radius)
          GROUP BY p.course_id) near
    JOIN course c ON c.id = near.course_id
    WHERE near.meters <= radius
      AND (c.is_uploaded OR c.owner = CASE current_setting('role') WHEN 'none' THEN session_user::text
                                        ELSE current_setting('role') END)
$$;

REVOKE ALL ON FUNCTION runnect_course_distances(bigint[], float8, float8, float8) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION runnect_course_distances(bigint[], float8, float8, float8) TO runnect_runner;
