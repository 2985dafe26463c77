-- PostgreSQL schema version 7 (v7-lighter-upkeep), as shipped: never edit this file; add a new version.
-- PostgresSchema runs its statements in order, each on its own (a statement ends at a
-- semicolon outside quotes, dollar quotes and comments).
--
-- Version 7: less upkeep for every course written (an import's or a copy's), the same
-- answers.
--
-- - The search grams (`course_search.tokens`) compare by bytes (`COLLATE "C"`): they are
--   the index's own `[0-9a-z]` tokens, so equality is unchanged, while the database's
--   collation made every comparison of the GIN index's sort and insert a `strcoll` call.
-- - A course's pieces are checked against `course` once a statement, not once a row: a
--   foreign key runs a locking look-up of the course for each of the 15 or so pieces a course
--   has. `course_piece` is derived data, an index of its course's path as SQLite's R*Tree is,
--   written only in the transaction that writes its course; a statement adding a piece of no
--   course is refused (`23503`, as the key refused it), and deleting a course deletes its
--   pieces (both by triggers of the tables' owner). What the key did beyond that, hold a
--   course against a delete committed while its pieces are added in another transaction, the
--   store never needs; a piece left so would name no course, and both functions reading the
--   pieces join their course.
-- - The GiST index of each course's whole path (`course_path`) goes: near-me search and
--   keyword + near read the pieces since version 6, and nothing read it.
--
-- Measured (`runnect db copy` of the near-me benchmark's 100,000 courses into a new
-- database, this 2-core machine, otherwise idle, 2026-11-25): the server's CPU 52–57 s →
-- 43–46 s; by `perf` with call graphs, of the server's time: the GIN index's text comparisons
-- (`bttextcmp`) 8.5 % → 5.1 %, and the after-insert triggers 9.6 % → 3.3 % (now the search
-- entries' own key and the pieces' statement check together).

ALTER TABLE course_search ALTER COLUMN tokens TYPE text[] COLLATE "C";

ALTER TABLE course_piece DROP CONSTRAINT course_piece_course_id_fkey;

CREATE FUNCTION runnect_pieces_added() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF EXISTS (SELECT FROM added a WHERE NOT EXISTS (SELECT FROM course c WHERE c.id = a.course_id)) THEN
        RAISE foreign_key_violation USING MESSAGE = 'a course piece names no course';
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER course_piece_added AFTER INSERT ON course_piece REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION runnect_pieces_added();

CREATE FUNCTION runnect_courses_removed() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    DELETE FROM course_piece p USING removed r WHERE p.course_id = r.id;
    RETURN NULL;
END $$;

CREATE TRIGGER course_removed AFTER DELETE ON course REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION runnect_courses_removed();

DROP INDEX course_path;
