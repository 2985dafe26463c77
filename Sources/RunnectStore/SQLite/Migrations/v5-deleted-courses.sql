-- SQLite schema version 5 (v5-deleted-courses), as shipped: never edit this file; add a new version.
-- Run with what only Swift can do, in v5-deleted-courses.swift.
--
-- Version 5: an owner may delete a course that other runners' records follow. What those
-- records show of it (its distance, departure and path) is kept in `deleted_course` under the
-- course's id, by a trigger, and `record.course_id` no longer references `course` (rebuilt
-- without the foreign key, as SQLite cannot drop one). Course ids are never reused
-- (`AUTOINCREMENT`), so a record's course id names the deleted course alone.

CREATE TABLE deleted_course (
    id INTEGER PRIMARY KEY,
    owner TEXT NOT NULL,
    distance_m DOUBLE NOT NULL,
    departure_region TEXT,
    departure_city TEXT,
    departure_town TEXT,
    departure_detail TEXT,
    departure_name TEXT,
    geometry BLOB NOT NULL,
    deleted_at DATETIME NOT NULL
);

CREATE TABLE record_v5 (
    "id" INTEGER PRIMARY KEY AUTOINCREMENT, "owner" TEXT NOT NULL, "course_id" INTEGER NOT NULL,
    "title" TEXT NOT NULL, "source_format" TEXT NOT NULL, "content_hash" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL, "start_time" DATETIME, "distance_m" DOUBLE NOT NULL,
    "point_count" INTEGER NOT NULL, "device_timer_time_s" DOUBLE, "course_time_s" DOUBLE NOT NULL,
    "course_distance_m" DOUBLE NOT NULL, "match_coverage" DOUBLE NOT NULL, "stats" TEXT NOT NULL,
    "geometry" BLOB NOT NULL, UNIQUE ("owner", "content_hash"));

INSERT INTO record_v5 SELECT id, owner, course_id, title, source_format, content_hash, created_at,
    start_time, distance_m, point_count, device_timer_time_s, course_time_s, course_distance_m,
    match_coverage, stats, geometry FROM record;

DROP TABLE record;

ALTER TABLE record_v5 RENAME TO record;

CREATE INDEX "record_owner_start" ON "record"("owner", "start_time");

CREATE INDEX "record_course_owner_time" ON "record"("course_id", "owner", "course_time_s");

CREATE TRIGGER record_added AFTER INSERT ON record BEGIN
    UPDATE course SET record_count = record_count + 1 WHERE id = NEW.course_id;
END;

CREATE TRIGGER record_removed AFTER DELETE ON record BEGIN
    UPDATE course SET record_count = record_count - 1 WHERE id = OLD.course_id;
END;

CREATE TRIGGER course_kept_for_records BEFORE DELETE ON course
WHEN EXISTS (SELECT 1 FROM record WHERE course_id = OLD.id) BEGIN
    INSERT INTO deleted_course (id, owner, distance_m, departure_region, departure_city,
        departure_town, departure_detail, departure_name, geometry, deleted_at)
    VALUES (OLD.id, OLD.owner, OLD.distance_m, OLD.departure_region, OLD.departure_city,
        OLD.departure_town, OLD.departure_detail, OLD.departure_name, OLD.geometry,
        strftime('%Y-%m-%d %H:%M:%f', 'now'));
END;

PRAGMA user_version = 5;
