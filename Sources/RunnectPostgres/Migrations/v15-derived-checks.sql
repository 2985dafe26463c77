-- PostgreSQL schema version 15 (v15-derived-checks), as shipped: never edit this file; add a new version.
-- PostgresSchema runs its statements in order, each on its own (a statement ends at a
-- semicolon outside quotes, dollar quotes and comments).
--
-- Version 15: the database refuses the derived values no store writes, as check constraints
-- on `course` and `record`; a search entry takes its creation time from its course.
--
-- Why: on PostgreSQL a runner has SQL and column grants to insert a course's `stats`,
-- `distance_m`, `path`, `point_count`, … (the store is the runner's own client). A shared
-- course with `stats = '{}'` or `distance_m = 'Infinity'` made every other runner's
-- `list --shared`, `show`, `export` and `index` fail, and a hand-made record could claim any
-- course time. Each constraint is what the store's own rows satisfy (every course and record
-- of the test corpus imported through the store, checked):
--
-- - `source_format` is one of RunnectKit's `ActivityFormat` raw values; `content_hash` is 64
--   lowercase hex digits (a SHA-256, as the store writes it).
-- - Figures are finite and in range: distances from 0 to 10⁹ km, times from 0 to 10¹² s,
--   coordinates within ±90/±180, a match's coverage from 0 to 1.
-- - `stats` decodes as `StoredStats` and agrees with its row (`statsValidFunction`): the
--   same distance (±0.5 mm, its JSON resolution) and point count.
-- - A course's `distance_m` is the length of its `path` (`ST_Length`, within 1 m), no path
--   means no distance and no ends; the path has no more points than the course (one more a
--   segment: a one-point segment is stored as a line from it to itself); the start and finish
--   are the path's ends and `path_m` its length with the segments joined (within 1 m).
-- - A record's course time is within its run's elapsed time (a record always has one).
--
-- A database migrated from an earlier version keeps its rows: the NaN ends earlier stores
-- wrote are mended (`mendedEndsStatement`), the constraints are added
-- `NOT VALID` and then validated, after `checkExistingRows(_:)` has looked for rows that
-- would fail; it names them and stops the migration (nothing is applied) rather than let
-- PostgreSQL's message say only that some row fails.
--
-- The checks of `stats` and of the path run in `BEFORE INSERT OR UPDATE OF` their columns
-- triggers (`checkTriggerStatements`), not as check constraints, which PostgreSQL runs on
-- every update of the row: a scrap or a record updates its course's counter, and the path's
-- check took 18 ms of a 7,264-point course's counter update (0.4 ms without). Their errors
-- read as a check constraint's (SQLSTATE 23514, `violates check constraint "…"`).

CREATE FUNCTION runnect_json_number(value jsonb, low numeric, high numeric, nullable boolean)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE jsonb_typeof(value)
        WHEN 'number' THEN value::numeric BETWEEN low AND high
        WHEN 'null' THEN nullable
        ELSE value IS NULL AND nullable END
$$;

CREATE FUNCTION runnect_json_integer(value json, low bigint, high bigint)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN json_typeof(value) = 'number' AND value::text ~ '^-?[0-9]{1,18}$'
        THEN value::text::bigint BETWEEN low AND high ELSE false END
$$;

CREATE FUNCTION runnect_json_timestamp(value jsonb)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE jsonb_typeof(value)
        WHEN 'string' THEN (value #>> '{}')
            ~ '^-?[0-9]{4,}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{1,3})?Z$'
        WHEN 'null' THEN true
        ELSE value IS NULL END
$$;

CREATE FUNCTION runnect_stats_valid(
    stats json, distance_m double precision, point_count integer, course_time_s double precision)
RETURNS boolean LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path = public, pg_temp AS $$
DECLARE
    s jsonb := stats::jsonb;
    b jsonb;
    distance double precision;
    elapsed double precision;
    moving double precision;
    pace double precision;
BEGIN
    IF s IS NULL OR jsonb_typeof(s) <> 'object' THEN RETURN false; END IF;
    b := s -> 'bounds';
    IF NOT (
        (s -> 'v' IS NULL OR runnect_json_integer(stats -> 'v', 1, 1))
        AND runnect_json_number(s -> 'distance_m', 0, 1e12, false)
        AND runnect_json_number(s -> 'distance_3d_m', 0, 1e12, true)
        AND runnect_json_number(s -> 'elapsed_time_s', 0, 1e12, true)
        AND runnect_json_number(s -> 'moving_time_s', 0, 1e12, true)
        AND runnect_json_number(s -> 'avg_pace_s_per_km', 0, 1e15, true)
        AND runnect_json_number(s -> 'moving_pace_s_per_km', 0, 1e15, true)
        AND runnect_json_number(s -> 'max_speed_m_s', 0, 1e12, true)
        AND runnect_json_number(s -> 'elevation_gain_m', 0, 1e12, true)
        AND runnect_json_number(s -> 'elevation_loss_m', 0, 1e12, true)
        AND runnect_json_number(s -> 'min_elevation_m', -1e12, 1e12, true)
        AND runnect_json_number(s -> 'max_elevation_m', -1e12, 1e12, true)
        AND runnect_json_number(s -> 'avg_heart_rate_bpm', 0, 1e12, true)
        AND runnect_json_number(s -> 'max_heart_rate_bpm', 0, 1e12, true)
        AND runnect_json_number(s -> 'avg_cadence_spm', 0, 1e12, true)
        AND runnect_json_number(s -> 'max_cadence_spm', 0, 1e12, true)
        AND runnect_json_timestamp(s -> 'start_time')
        AND runnect_json_timestamp(s -> 'end_time')
    ) THEN
        RETURN false;
    END IF;
    IF jsonb_typeof(b) = 'object' THEN
        IF NOT (runnect_json_number(b -> 'min_lat', -90, 90, false)
                AND runnect_json_number(b -> 'max_lat', -90, 90, false)
                AND runnect_json_number(b -> 'min_lon', -180, 180, false)
                AND runnect_json_number(b -> 'max_lon', -180, 180, false)) THEN
            RETURN false;
        END IF;
        IF (b ->> 'min_lat')::numeric > (b ->> 'max_lat')::numeric THEN RETURN false; END IF;
    ELSIF b IS NOT NULL AND jsonb_typeof(b) <> 'null' THEN
        RETURN false;
    END IF;
    IF NOT (runnect_json_integer(stats -> 'points', 0, 2147483647)
            AND runnect_json_integer(stats -> 'segments', 0, 2147483647)) THEN
        RETURN false;
    END IF;
    distance := (s ->> 'distance_m')::double precision;
    elapsed := (s ->> 'elapsed_time_s')::double precision;
    moving := (s ->> 'moving_time_s')::double precision;
    IF moving IS NOT NULL AND (elapsed IS NULL OR moving > elapsed + 0.001) THEN RETURN false; END IF;
    pace := (s ->> 'avg_pace_s_per_km')::double precision;
    IF pace IS NOT NULL AND (elapsed IS NULL OR elapsed <= 0
            OR (pace + 0.005) * (distance + 0.0005) / 1000 * (1 + 1e-9) < elapsed - 0.0005) THEN
        RETURN false;
    END IF;
    pace := (s ->> 'moving_pace_s_per_km')::double precision;
    IF pace IS NOT NULL AND (moving IS NULL OR moving <= 0
            OR (pace + 0.005) * (distance + 0.0005) / 1000 * (1 + 1e-9) < moving - 0.0005) THEN
        RETURN false;
    END IF;
    -- The row: the same distance and points; a record's course time within its elapsed time
    -- (the elapsed time is at JSON resolution, a millisecond; the course time is not).
    IF NOT (abs(distance - runnect_stats_valid.distance_m) <= 0.0005
            AND (s ->> 'points')::numeric = runnect_stats_valid.point_count) THEN
        RETURN false;
    END IF;
    RETURN course_time_s IS NULL OR (elapsed IS NOT NULL AND course_time_s <= elapsed + 0.0005);
END $$;

CREATE FUNCTION runnect_path_agrees(
    path geography, distance_m double precision, point_count integer, start_lat double precision,
    start_lon double precision, finish_lat double precision, finish_lon double precision,
    path_m double precision)
RETURNS boolean LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path = public, pg_temp AS $$
DECLARE
    g geometry;
    lines integer;
    first geometry;
    last geometry;
    length double precision;
    joined double precision;
BEGIN
    IF path IS NULL THEN
        RETURN distance_m = 0 AND start_lat IS NULL AND start_lon IS NULL AND finish_lat IS NULL
            AND finish_lon IS NULL AND path_m IS NULL;
    END IF;
    IF start_lat IS NULL OR start_lon IS NULL OR finish_lat IS NULL OR finish_lon IS NULL OR path_m IS NULL
    THEN
        RETURN false;
    END IF;
    g := path::geometry;
    lines := ST_NumGeometries(g);
    IF ST_IsEmpty(g) OR ST_NPoints(g) > point_count::bigint + lines THEN RETURN false; END IF;
    length := ST_Length(path);
    IF NOT abs(length - distance_m) <= 1 THEN RETURN false; END IF;
    first := ST_StartPoint(ST_GeometryN(g, 1));
    last := ST_EndPoint(ST_GeometryN(g, lines));
    IF NOT (abs(ST_Y(first) - start_lat) <= 1e-9 AND abs(ST_X(first) - start_lon) <= 1e-9
            AND abs(ST_Y(last) - finish_lat) <= 1e-9 AND abs(ST_X(last) - finish_lon) <= 1e-9) THEN
        RETURN false;
    END IF;
    joined := length;
    FOR i IN 2..lines LOOP
        joined := joined + ST_Length(ST_MakeLine(ST_EndPoint(ST_GeometryN(g, i - 1)),
                                                 ST_StartPoint(ST_GeometryN(g, i)))::geography);
    END LOOP;
    RETURN abs(joined - path_m) <= 1;
END $$;

UPDATE course SET start_lat = ST_Y(e.first), start_lon = ST_X(e.first),
                  finish_lat = ST_Y(e.last), finish_lon = ST_X(e.last)
FROM (SELECT id, ST_StartPoint(ST_GeometryN(path::geometry, 1)) AS first,
             ST_EndPoint(ST_GeometryN(path::geometry, ST_NumGeometries(path::geometry))) AS last
      FROM course
      WHERE path IS NOT NULL AND (start_lat = 'NaN' OR start_lon = 'NaN' OR finish_lat = 'NaN'
                                  OR finish_lon = 'NaN')) e
WHERE course.id = e.id;

ALTER TABLE course ADD CONSTRAINT course_source_format_known CHECK (source_format IN ('gpx-1.0', 'gpx-1.1', 'gpx', 'points', 'points-json', 'geojson', 'tcx', 'fit')) NOT VALID;

ALTER TABLE course ADD CONSTRAINT course_content_hash_sha256 CHECK (content_hash ~ '^[0-9a-f]{64}$') NOT VALID;

ALTER TABLE record ADD CONSTRAINT record_source_format_known CHECK (source_format IN ('gpx-1.0', 'gpx-1.1', 'gpx', 'points', 'points-json', 'geojson', 'tcx', 'fit')) NOT VALID;

ALTER TABLE record ADD CONSTRAINT record_content_hash_sha256 CHECK (content_hash ~ '^[0-9a-f]{64}$') NOT VALID;

ALTER TABLE course ADD CONSTRAINT course_figures_in_range CHECK (distance_m >= 0 AND distance_m <= 1e12 AND point_count >= 0
AND (path_m IS NULL OR (path_m >= 0 AND path_m <= 1e12))
AND (start_lat IS NULL OR (start_lat BETWEEN -90 AND 90 AND start_lon BETWEEN -180 AND 180
     AND finish_lat BETWEEN -90 AND 90 AND finish_lon BETWEEN -180 AND 180))) NOT VALID;

ALTER TABLE record ADD CONSTRAINT record_figures_in_range CHECK (distance_m >= 0 AND distance_m <= 1e12 AND point_count >= 0
AND course_time_s >= 0 AND course_time_s <= 1e12
AND course_distance_m >= 0 AND course_distance_m <= 1e12
AND match_coverage >= 0 AND match_coverage <= 1
AND (device_timer_time_s IS NULL OR (device_timer_time_s >= 0 AND device_timer_time_s <= 1e12))) NOT VALID;

CREATE FUNCTION runnect_course_checked() RETURNS trigger LANGUAGE plpgsql
SET search_path = public, pg_temp AS $$
BEGIN
    IF (runnect_stats_valid(NEW.stats, NEW.distance_m, NEW.point_count, NULL)) IS NOT TRUE THEN
        RAISE EXCEPTION 'new row for relation "course" violates check constraint "course_stats_valid"'
            USING ERRCODE = 'check_violation', TABLE = 'course', CONSTRAINT = 'course_stats_valid';
    END IF;
    IF (runnect_path_agrees(NEW.path, NEW.distance_m, NEW.point_count, NEW.start_lat, NEW.start_lon,
                    NEW.finish_lat, NEW.finish_lon, NEW.path_m)) IS NOT TRUE THEN
        RAISE EXCEPTION 'new row for relation "course" violates check constraint "course_path_agrees"'
            USING ERRCODE = 'check_violation', TABLE = 'course', CONSTRAINT = 'course_path_agrees';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER course_checked BEFORE INSERT OR UPDATE OF distance_m, finish_lat, finish_lon, path, path_m, point_count, start_lat, start_lon, stats ON course
    FOR EACH ROW EXECUTE FUNCTION runnect_course_checked();

REVOKE ALL ON FUNCTION runnect_course_checked() FROM PUBLIC;

CREATE FUNCTION runnect_record_checked() RETURNS trigger LANGUAGE plpgsql
SET search_path = public, pg_temp AS $$
BEGIN
    IF (runnect_stats_valid(NEW.stats, NEW.distance_m, NEW.point_count, NEW.course_time_s)) IS NOT TRUE THEN
        RAISE EXCEPTION 'new row for relation "record" violates check constraint "record_stats_valid"'
            USING ERRCODE = 'check_violation', TABLE = 'record', CONSTRAINT = 'record_stats_valid';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER record_checked BEFORE INSERT OR UPDATE OF course_time_s, distance_m, point_count, stats ON record
    FOR EACH ROW EXECUTE FUNCTION runnect_record_checked();

REVOKE ALL ON FUNCTION runnect_record_checked() FROM PUBLIC;

CREATE OR REPLACE FUNCTION runnect_search_entry_added() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    SELECT owner, is_uploaded, scrap_count, distance_m, round(extract(epoch FROM created_at) * 1000)::bigint
    INTO NEW.owner, NEW.is_uploaded, NEW.scrap_count, NEW.distance_m, NEW.created_ms
    FROM course WHERE id = NEW.course_id;
    RETURN NEW;
END $$;
