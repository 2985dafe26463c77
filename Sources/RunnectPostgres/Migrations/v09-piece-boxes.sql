-- PostgreSQL schema version 9 (v9-piece-boxes), as shipped: never edit this file; add a new version.
-- PostgresSchema runs its statements in order, each on its own (a statement ends at a
-- semicolon outside quotes, dollar quotes and comments).
--
-- Version 9: each path piece is indexed by its longitude-latitude box, as SQLite's R*Tree
-- indexes it, in place of the GiST index on its `geography`.
--
-- - A piece keeps `CoursePieces`' box (`west`, `south`, `east`, `north`, degrees: it
--   holds the legs' poleward bulge, reaches a pole its legs may pass near, and takes every
--   longitude when a leg crosses the antimeridian), and a two-dimensional GiST index holds
--   `ST_MakeEnvelope` of it (PostGIS's `geometry` boxes, 16 bytes an entry).
-- - Near-me reads a ring through `runnect_nearby_box`: the pieces whose box meets the
--   ring's own (`NearbyBox`, which holds every point within the ring on the ellipsoid, split
--   in two at the antimeridian), each measured on the ellipsoid as before.
-- - The pieces there are cut again, with their boxes, from each course's activity.
--
-- Why: the `geography` index keys are boxes in three dimensions around the Earth's centre,
-- which its inserts and its build split poorly: at 1,000,000 courses the 25 m ring at Jamsil
-- met 846 pieces over some 2,200 index pages (13 of its 14 ms), and a `REINDEX` made it worse
-- (3,309 pages). A two-dimensional box is what the question asks (SQLite's R*Tree answers
-- it from the same boxes), its index splits boxes in the plane, and `CREATE INDEX` builds it
-- sorted along a space-filling curve.
--
-- Measured at a million courses (`runnect-bench pg near`, 2026-11-25): the flat box is
-- looser (1,188 pieces meet the ring's at Jamsil, 704 the `geography` one) and measuring a
-- piece costs about 12 µs, so the ring measures only the pieces that meet both; so read, the
-- ring took 13.4–14.1 ms where version 8's took 22–23.5 on the same data. The inserts' index
-- read 327 pages to find nothing in the Sahara, a built one 5: a copy into an empty store
-- builds it after the courses. Near-me p95 20.2 → 14.5 ms.

DROP INDEX course_piece_path;

DELETE FROM course_piece;

ALTER TABLE course_piece ADD COLUMN west float8 NOT NULL, ADD COLUMN south float8 NOT NULL,
    ADD COLUMN east float8 NOT NULL, ADD COLUMN north float8 NOT NULL;

CREATE INDEX IF NOT EXISTS course_piece_box ON course_piece USING gist (ST_MakeEnvelope(west, south, east, north));

DROP FUNCTION runnect_nearby_ring(float8, float8, float8, text, integer);

CREATE FUNCTION runnect_nearby_box(lon float8, lat float8, ring float8, lat_min float8, lat_max float8,
                   lon_ranges float8[], scope text, up_to integer)
RETURNS TABLE (id bigint, meters float8)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = public, pg_temp SET max_parallel_workers_per_gather = 0 SET jit = off AS $$
    SELECT near.course_id, near.meters
    FROM (SELECT p.course_id, min(ST_Distance(p.path, ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography)) AS meters
          FROM course_piece p
          WHERE (ST_MakeEnvelope(p.west, p.south, p.east, p.north) && ST_MakeEnvelope(lon_ranges[1], lat_min, lon_ranges[2], lat_max)
       OR ST_MakeEnvelope(p.west, p.south, p.east, p.north) && ST_MakeEnvelope(lon_ranges[3], lat_min, lon_ranges[4], lat_max))
  AND p.path && _ST_Expand(ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography, ring)
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

REVOKE ALL ON FUNCTION runnect_nearby_box(float8, float8, float8, float8, float8, float8[], text, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION runnect_nearby_box(float8, float8, float8, float8, float8, float8[], text, integer) TO runnect_runner;
