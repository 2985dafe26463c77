-- PostgreSQL schema version 2 (v2-path-segments), as shipped: never edit this file; add a new version.
-- PostgresSchema runs its statements in order, each on its own (a statement ends at a
-- semicolon outside quotes, dollar quotes and comments).
--
-- Version 2: a course's `path` becomes a `MultiLineString`, one line per course segment
-- (`PostgresTransaction/pathWKB(_:)`), as near-me search measures it on both backends:
-- version 1 joined the segments into one `LineString`, which measured a leg from each
-- segment's end to the next one's start, and left a one-point course without a path.

ALTER TABLE course ALTER COLUMN path TYPE geography(MultiLineString, 4326) USING ST_Multi(path::geometry)::geography;
