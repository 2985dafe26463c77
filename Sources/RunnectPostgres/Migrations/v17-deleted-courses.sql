-- PostgreSQL schema version 17 (v17-deleted-courses), as shipped: never edit this file; add a new version.
-- PostgresSchema runs its statements in order, each on its own (a statement ends at a
-- semicolon outside quotes, dollar quotes and comments).
--
-- Version 17: an owner may delete a course that other runners' records follow, as on SQLite
-- (its version 5). What those records show of it (distance, departure, path) is kept in
-- `deleted_course` under the course's id by a `SECURITY DEFINER` trigger (the owner cannot
-- read the others' records); `record.course_id` no longer references `course`. A runner reads
-- a deleted course's row only while holding a record of it (or as its owner), and never its
-- title: it is not kept. Course ids come from an identity and are never reused.

CREATE TABLE deleted_course (
    id bigint PRIMARY KEY,
    owner text NOT NULL,
    distance_m double precision NOT NULL,
    departure_region text,
    departure_city text,
    departure_town text,
    departure_detail text,
    departure_name text,
    geometry bytea NOT NULL,
    deleted_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE record DROP CONSTRAINT record_course_id_fkey;

CREATE FUNCTION runnect_course_kept_for_records() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM record WHERE course_id = OLD.id) THEN
        INSERT INTO deleted_course (id, owner, distance_m, departure_region, departure_city, departure_town,
            departure_detail, departure_name, geometry)
        VALUES (OLD.id, OLD.owner, OLD.distance_m, OLD.departure_region, OLD.departure_city,
            OLD.departure_town, OLD.departure_detail, OLD.departure_name, OLD.geometry)
        ON CONFLICT (id) DO NOTHING;
    END IF;
    RETURN OLD;
END $$;

CREATE TRIGGER course_kept_for_records BEFORE DELETE ON course FOR EACH ROW
    EXECUTE FUNCTION runnect_course_kept_for_records();

REVOKE ALL ON FUNCTION runnect_course_kept_for_records() FROM PUBLIC;

ALTER TABLE deleted_course ENABLE ROW LEVEL SECURITY;

CREATE POLICY deleted_course_read ON deleted_course FOR SELECT USING (
    owner = current_user
    OR EXISTS (SELECT 1 FROM record r WHERE r.course_id = deleted_course.id AND r.owner = current_user));

REVOKE ALL ON deleted_course FROM PUBLIC;

GRANT SELECT ON deleted_course TO runnect_runner;
