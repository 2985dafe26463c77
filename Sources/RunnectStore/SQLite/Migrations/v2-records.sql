-- SQLite schema version 2 (v2-records), as shipped: never edit this file; add a new version.
--
-- Version 2: records of runs, each tied to one course, and an R*Tree of course bounds (with
-- each course's start and finish) for finding the courses a run may have followed.

ALTER TABLE course ADD COLUMN record_count INTEGER NOT NULL DEFAULT 0;

CREATE TABLE "record" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "owner" TEXT NOT NULL, "course_id" INTEGER NOT NULL REFERENCES "course"("id") ON DELETE RESTRICT, "title" TEXT NOT NULL, "source_format" TEXT NOT NULL, "content_hash" TEXT NOT NULL, "created_at" DATETIME NOT NULL, "start_time" DATETIME, "distance_m" DOUBLE NOT NULL, "point_count" INTEGER NOT NULL, "device_timer_time_s" DOUBLE, "course_time_s" DOUBLE NOT NULL, "course_distance_m" DOUBLE NOT NULL, "match_coverage" DOUBLE NOT NULL, "stats" TEXT NOT NULL, "geometry" BLOB NOT NULL, UNIQUE ("owner", "content_hash"));

CREATE INDEX "record_owner_start" ON "record"("owner", "start_time");

CREATE INDEX "record_course_owner_time" ON "record"("course_id", "owner", "course_time_s");

CREATE TRIGGER record_added AFTER INSERT ON record BEGIN
    UPDATE course SET record_count = record_count + 1 WHERE id = NEW.course_id;
END;

CREATE TRIGGER record_removed AFTER DELETE ON record BEGIN
    UPDATE course SET record_count = record_count - 1 WHERE id = OLD.course_id;
END;

CREATE VIRTUAL TABLE course_bounds USING rtree(
    id, min_lat, max_lat, min_lon, max_lon, +start_lat, +start_lon, +finish_lat, +finish_lon);

CREATE TRIGGER course_bounds_removed AFTER DELETE ON course BEGIN
    DELETE FROM course_bounds WHERE id = OLD.id;
END;

PRAGMA user_version = 2;
