-- SQLite schema version 4 (v4-course-pieces), as shipped: never edit this file; add a new version.
-- Run with what only Swift can do, in v4-course-pieces.swift.
--
-- Version 4: `course_piece`, an R*Tree of each course's path cut into pieces of a few legs
-- (see `CoursePieces`), each with its points beside its box, for near-me search. A piece's id
-- is its course's id times 2^24 plus its index; a course's pieces are numbered from 0
-- without a gap, so the trigger deletes them by id until one is missing.

CREATE VIRTUAL TABLE course_piece USING rtree(id, min_lat, max_lat, min_lon, max_lon, +path);

CREATE TRIGGER course_piece_removed AFTER DELETE ON course BEGIN
    DELETE FROM course_piece WHERE id IN (
        WITH RECURSIVE piece(n) AS (
            SELECT 0
            UNION ALL
            SELECT n + 1 FROM piece
            WHERE EXISTS (SELECT 1 FROM course_piece WHERE id = OLD.id * 16777216 + n + 1)
        )
        SELECT OLD.id * 16777216 + n FROM piece
    );
END;

PRAGMA user_version = 4;
