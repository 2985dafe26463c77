-- PostgreSQL schema version 10 (v10-search-initials), as shipped: never edit this file; add a new version.
-- PostgresSchema runs its statements in order, each on its own (a statement ends at a
-- semicolon outside quotes, dollar quotes and comments).
--
-- Version 10: a search entry keeps each field's initials projection (`title_initials`,
-- `description_initials`, `departure_initials`: every syllable replaced by its initial
-- consonant, as `SearchIndex.NormalizedRow.initials` writes it), and
-- `runnect_search_page` tests every keyword with `strpos`: a plain keyword in the text, a
-- keyword of initial consonants in the projection (exact: `ㅇㄹㅍ` is a substring of
-- `ㅇㄹㅍㄱㅇ` exactly where it matches `올림픽공원`), a mixed one in both (its literal run in
-- the text, its projection in the projection's same field). A walk no longer reads the
-- entries' grams, and a tier's title and departure counts hold for every keyword.
--
-- Why: a walk tested a keyword of initials with `@>` on the entry's grams (about 127 of
-- them, 1.3 KB a row, in each field's list in turn): 9 of the 11 ms of `ㅇㄹㅍ`'s walk of
-- 1,024 entries at a million courses. With `strpos` on the projection the same walk takes
-- 1.1–1.3 ms (`runnect-bench pg search`, `auto_explain`, 2026-11-25), and `ㅇㄹㅍ`'s p95
-- 17.4 → 10.6 ms. And a tier's counts left such a keyword out (it had no needle), so a rare
-- tier asked the GIN index for every entry with it in any field.

ALTER TABLE course_search ADD COLUMN title_initials text NOT NULL DEFAULT '',
                          ADD COLUMN description_initials text NOT NULL DEFAULT '',
                          ADD COLUMN departure_initials text NOT NULL DEFAULT '';

GRANT INSERT (title_initials, description_initials, departure_initials) ON course_search TO runnect_runner;

DROP FUNCTION runnect_search_page(text[], text[], integer, integer, boolean, text, integer, integer, integer);

CREATE FUNCTION runnect_search_page(clauses text[], needles text[], initials text[], title_words integer,
                                    departure_words integer, shared_only boolean, sort text,
                                    walk integer, skip integer, up_to integer)
RETURNS TABLE (id bigint, created_ms bigint, title text, description text, departure text,
               scrap_count integer, distance_m float8, in_title integer, in_departure integer)
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = public, pg_temp SET enable_seqscan = off SET max_parallel_workers_per_gather = 0
SET jit = off AS $$
DECLARE
    caller text := CASE current_setting('role') WHEN 'none' THEN session_user::text
                   ELSE current_setting('role') END;
    -- The entries the caller may read (`owner` and `is_uploaded` mirror the course's).
    readable text := CASE WHEN shared_only THEN 's.is_uploaded' ELSE '(s.is_uploaded OR s.owner = $1)' END;
    matching text := 'true';
    word_count integer := coalesce(array_length(needles, 1), 0);
    in_field text[];
    title_tests text[] := '{}';
    departure_tests text[] := '{}';
    -- Whether `strpos` decides every keyword (none mixed): then the rows are exact
    -- matches and their counts exact, and their texts are not sent.
    exact boolean := true;
    selected text;
    field text;
    ordered text;
    page text;
    clause text;
BEGIN
    IF coalesce(array_length(initials, 1), 0) <> word_count THEN
        RAISE EXCEPTION 'runnect_search_page: % needles, % initials', word_count,
            coalesce(array_length(initials, 1), 0);
    END IF;
    FOREACH clause IN ARRAY clauses LOOP
        IF clause !~ '^[0-9a-z |]*$' THEN
            RAISE EXCEPTION 'runnect_search_page: a clause holds more than tokens';
        END IF;
        matching := matching || ' AND (' || CASE WHEN position(' ' IN clause) = 0
            THEN 's.tokens && ' || quote_literal(string_to_array(clause, '|')::text) || '::text[]'
            ELSE (SELECT string_agg('s.tokens @> ' || quote_literal(string_to_array(list, ' ')::text)
                                    || '::text[]', ' OR ')
                  FROM unnest(string_to_array(clause, '|')) AS list) END || ')';
    END LOOP;
    -- Keyword i in each field: its needles there (the field names are this text's own).
    FOR i IN 1 .. word_count LOOP
        IF needles[i] IS NULL AND initials[i] IS NULL THEN
            RAISE EXCEPTION 'runnect_search_page: keyword % has no needle', i;
        END IF;
        exact := exact AND (needles[i] IS NULL OR initials[i] IS NULL);
        in_field := '{}';
        FOREACH field IN ARRAY ARRAY['title', 'description', 'departure'] LOOP
            in_field := in_field || concat_ws(' AND ',
                CASE WHEN needles[i] IS NOT NULL THEN format('strpos(s.%s, $2[%s]) > 0', field, i) END,
                CASE WHEN initials[i] IS NOT NULL
                     THEN format('strpos(s.%s_initials, $6[%s]) > 0', field, i) END);
        END LOOP;
        matching := matching || ' AND ((' || array_to_string(in_field, ') OR (') || '))';
        title_tests := title_tests || format('(%s)::int', in_field[1]);
        departure_tests := departure_tests || format('(%s)::int', in_field[3]);
    END LOOP;
    IF title_words > 0 AND word_count > 0 THEN
        matching := matching || format(' AND (%s) >= %s', array_to_string(title_tests, ' + '), title_words);
    END IF;
    IF departure_words > 0 AND word_count > 0 THEN
        matching := matching
            || format(' AND (%s) >= %s', array_to_string(departure_tests, ' + '), departure_words);
    END IF;
    selected := 'SELECT s.course_id, s.created_ms, ' || CASE WHEN exact
            THEN 'NULL::text, NULL::text, NULL::text' ELSE 's.title, s.description, s.departure' END
        || ', s.scrap_count, s.distance_m, ' || CASE WHEN word_count = 0 THEN '0, 0'
            ELSE array_to_string(title_tests, ' + ') || ', ' || array_to_string(departure_tests, ' + ') END
        || ' FROM (';
    ordered := CASE sort
        WHEN 'date' THEN 's.created_ms DESC, s.course_id DESC'
        WHEN 'scrap' THEN 's.scrap_count DESC, s.created_ms DESC, s.course_id DESC'
        WHEN 'distance' THEN 's.distance_m, s.course_id'
    END;
    IF ordered IS NULL THEN
        RAISE EXCEPTION 'runnect_search_page: no sort %', quote_literal(sort);
    END IF;
    -- The entries in order, as `s`: the first `walk` readable ones through the order's
    -- index (the shared entries' own when shared_only), the matching ones among them; or
    -- every match the GIN index finds, sorted (`OFFSET 0` keeps the planner from
    -- walking the order's index instead).
    page := 'SELECT * FROM ' || CASE WHEN walk IS NULL
        THEN '(SELECT * FROM course_search s WHERE ' || readable || ' AND ' || matching || ' OFFSET 0) s'
        ELSE '(SELECT * FROM course_search s WHERE ' || readable || ' ORDER BY ' || ordered
             || ' LIMIT $5) s WHERE ' || matching END;
    page := selected || page || ' ORDER BY ' || ordered || ' OFFSET $3 LIMIT $4) s ORDER BY '
        || ordered;
    RETURN QUERY EXECUTE page USING caller, needles, skip, up_to, walk, initials;
END $$;

REVOKE ALL ON FUNCTION runnect_search_page(text[], text[], text[], integer, integer, boolean, text, integer, integer, integer) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION runnect_search_page(text[], text[], text[], integer, integer, boolean, text, integer, integer, integer) TO runnect_runner;
