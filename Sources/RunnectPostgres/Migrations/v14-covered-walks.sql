-- PostgreSQL schema version 14 (v14-covered-walks), as shipped: never edit this file; add a new version.
-- PostgresSchema runs its statements in order, each on its own (a statement ends at a
-- semicolon outside quotes, dollar quotes and comments).
--
-- Version 14: the search entries' order indexes (`course_search_newest`, `_scraps` and
-- `_distance`, and the `course_search_shared_` ones of the shared entries) carry every
-- column a walk reads (`INCLUDE`), so that `runnect_search_page`'s walk reads its order's
-- index alone (an index-only scan) where the visibility map shows the entries' pages
-- all-visible: after a copy's autovacuum, or `runnect db optimize`.
--
-- Why: an entry's row is 1.5 KB (its tokens), five to a page. At a million courses `잠실`'s
-- walk of the 4,096 newest shared entries read 1,600 pages of the table and the index, 3.0
-- ms before any keyword was tested (`EXPLAIN ANALYZE`, 2026-11-27); from the covering index,
-- 177 pages and 1.0 ms. A walk in scrap or distance order read a page of the table for
-- nearly every entry (`야경`'s walk of 1,024 in distance order, 5.2 ms on the server). In
-- alternating benchmark runs at a million courses (index-only scans off, then on), p95
-- went from 11.6 to 7.4 ms for `잠실`, 11.4 to 8.8 for `a`, 8.1 to 5.3 for `야경`.
--
-- The covering indexes are wider: at a million courses 179–182 MB each for the 600,000
-- shared entries, 310–315 MB for all of them, where their keys alone took 22–47 MB; a copy's
-- pace was unchanged (alternating runs of 100,000 courses). Each is built under a new name,
-- the old one dropped and the new one given its name.

CREATE INDEX course_search_newest_covering ON course_search (created_ms, course_id) INCLUDE (owner, is_uploaded, scrap_count, distance_m, title, description, departure, title_initials, description_initials, departure_initials);

DROP INDEX course_search_newest;

ALTER INDEX course_search_newest_covering RENAME TO course_search_newest;

CREATE INDEX course_search_shared_newest_covering ON course_search (created_ms, course_id) INCLUDE (scrap_count, distance_m, title, description, departure, title_initials, description_initials, departure_initials) WHERE is_uploaded;

DROP INDEX course_search_shared_newest;

ALTER INDEX course_search_shared_newest_covering RENAME TO course_search_shared_newest;

CREATE INDEX course_search_scraps_covering ON course_search (scrap_count, created_ms, course_id) INCLUDE (owner, is_uploaded, distance_m, title, description, departure, title_initials, description_initials, departure_initials);

DROP INDEX course_search_scraps;

ALTER INDEX course_search_scraps_covering RENAME TO course_search_scraps;

CREATE INDEX course_search_shared_scraps_covering ON course_search (scrap_count, created_ms, course_id) INCLUDE (distance_m, title, description, departure, title_initials, description_initials, departure_initials) WHERE is_uploaded;

DROP INDEX course_search_shared_scraps;

ALTER INDEX course_search_shared_scraps_covering RENAME TO course_search_shared_scraps;

CREATE INDEX course_search_distance_covering ON course_search (distance_m, course_id) INCLUDE (owner, is_uploaded, created_ms, scrap_count, title, description, departure, title_initials, description_initials, departure_initials);

DROP INDEX course_search_distance;

ALTER INDEX course_search_distance_covering RENAME TO course_search_distance;

CREATE INDEX course_search_shared_distance_covering ON course_search (distance_m, course_id) INCLUDE (created_ms, scrap_count, title, description, departure, title_initials, description_initials, departure_initials) WHERE is_uploaded;

DROP INDEX course_search_shared_distance;

ALTER INDEX course_search_shared_distance_covering RENAME TO course_search_shared_distance;
