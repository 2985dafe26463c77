-- SQLite schema version 3 (v3-course-starts), as shipped: never edit this file; add a new version.
-- Run with what only Swift can do, in v3-course-starts.swift.
--
-- Version 3: the spatial indexes as they are now. `course_bounds` keeps each course's box
-- alone (the ends moved out), and `course_start` indexes each course's start point (its box
-- a point, in the R*Tree's 32-bit floats), with the exact start and finish and the path
-- length beside it: matching a run asks for the starts in the run's
-- box, which in a city full of long loops are a fifteenth of the boxes that meet it (see
-- `CourseStore.candidateCourses(for:in:)`).

DROP TRIGGER course_bounds_removed;

DROP TABLE course_bounds;

CREATE VIRTUAL TABLE course_bounds USING rtree(id, min_lat, max_lat, min_lon, max_lon);

CREATE VIRTUAL TABLE course_start USING rtree(
    id, min_lat, max_lat, min_lon, max_lon, +start_lat, +start_lon, +finish_lat, +finish_lon, +path_m);

CREATE TRIGGER course_spatial_removed AFTER DELETE ON course BEGIN
    DELETE FROM course_bounds WHERE id = OLD.id;
    DELETE FROM course_start WHERE id = OLD.id;
END;

PRAGMA user_version = 3;
