-- PostgreSQL schema version 4 (v4-path-pieces), as shipped: never edit this file; add a new version.
-- PostgresSchema runs its statements in order, each on its own (a statement ends at a
-- semicolon outside quotes, dollar quotes and comments).
--
-- Version 4: near-me search over *path pieces*, as SQLite's schema version 4 does: a table
-- of each course's path cut into runs of at most 16 legs or 1 km (`CoursePieces`, the same
-- cut), each a `geography(LineString)` with a GiST index.
--
-- Why: with one box per course the GiST index's nearest-first walk rechecks every course
-- whose box holds the point; at Jamsil on 100,000 courses its first row came after 37 ms of
-- a 42 ms query. Pieces' boxes are small, so few hold the point.
--
-- Runners may insert the pieces of their own courses and read none (the pieces of a private
-- course tell where it runs); `runnect_nearby`, a function of the tables' owner, reads them.

CREATE TABLE course_piece (
    course_id bigint NOT NULL REFERENCES course ON DELETE CASCADE,
    piece integer NOT NULL,
    path geography(LineString, 4326) NOT NULL,
    PRIMARY KEY (course_id, piece)
);

CREATE INDEX course_piece_path ON course_piece USING gist (path);

ALTER TABLE course_piece ENABLE ROW LEVEL SECURITY;

CREATE POLICY course_piece_add ON course_piece FOR INSERT
    WITH CHECK (EXISTS (SELECT 1 FROM course c WHERE c.id = course_id AND c.owner = current_user));

GRANT INSERT ON course_piece TO runnect_runner;

DROP FUNCTION runnect_nearby(float8, float8, float8, text, integer);

CREATE FUNCTION runnect_nearby(lon float8, lat float8, radius float8, scope text, up_to integer)
RETURNS TABLE (id bigint, meters float8, sphere float8)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT p.course_id, ST_Distance(p.path, ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography), p.path <-> ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography
    FROM course_piece p JOIN course c ON c.id = p.course_id
    WHERE ST_DWithin(p.path, ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography, radius) AND (c.is_uploaded OR c.owner = CASE current_setting('role') WHEN 'none' THEN session_user::text ELSE current_setting('role') END)
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
    ORDER BY p.path <-> ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography
    LIMIT up_to
$$;

REVOKE ALL ON FUNCTION runnect_nearby(float8, float8, float8, text, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION runnect_nearby(float8, float8, float8, text, integer) TO runnect_runner;
