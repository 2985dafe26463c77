-- PostgreSQL schema version 11 (v11-search-continued), as shipped: never edit this file; add a new version.
-- PostgresSchema runs its statements in order, each on its own (a statement ends at a
-- semicolon outside quotes, dollar quotes and comments).
--
-- Version 11: `runnect_search_page` reads on from a row already seen (`after_id` and its
-- order's keys), so that a walk that came up short walks on from where the last one ended
-- instead of walking the same entries again, four times as far.
--
-- Why: at a million courses `a` (every course, relevance) walked its 1,024 newest readable
-- entries, found too few of its top tier there, and walked 4,096 from the newest again for
-- the rest (3.7 ms, schema 10's statement log), a quarter of them rows already seen. A walk
-- on now starts past the last match seen and is as long as the density found says the rest
-- needs (twice the rows expected, at least the first walk's, at most three times it).

DROP FUNCTION runnect_search_page(text[], text[], text[], integer, integer, boolean, text, integer, integer, integer);

CREATE FUNCTION runnect_search_page(clauses text[], needles text[], initials text[], title_words integer,
                                    departure_words integer, shared_only boolean, sort text,
                                    walk integer, skip integer, up_to integer,
                                    after_id bigint DEFAULT NULL, after_created_ms bigint DEFAULT NULL,
                                    after_scrap_count integer DEFAULT NULL,
                                    after_distance_m double precision DEFAULT NULL)
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
    after text := '';
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
    IF after_id IS NOT NULL THEN
        IF after_created_ms IS NULL OR (sort = 'scrap' AND after_scrap_count IS NULL)
           OR (sort = 'distance' AND after_distance_m IS NULL) THEN
            RAISE EXCEPTION 'runnect_search_page: the keys of course % in % order are missing', after_id,
                quote_literal(sort);
        END IF;
        -- Rows past the one seen, in the order's own terms (a row comparison the order's
        -- index bounds its scan by).
        after := CASE sort
            WHEN 'scrap' THEN ' AND (s.scrap_count, s.created_ms, s.course_id) < ($9, $8, $7)'
            WHEN 'distance' THEN ' AND (s.distance_m, s.course_id) > ($10, $7)'
            ELSE ' AND (s.created_ms, s.course_id) < ($8, $7)' END;
    END IF;
    readable := readable || after;
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
    RETURN QUERY EXECUTE page USING caller, needles, skip, up_to, walk, initials, after_id, after_created_ms, after_scrap_count, after_distance_m;
END $$;

REVOKE ALL ON FUNCTION runnect_search_page(text[], text[], text[], integer, integer, boolean, text, integer, integer, integer, bigint, bigint, integer, double precision) FROM PUBLIC;

GRANT EXECUTE ON FUNCTION runnect_search_page(text[], text[], text[], integer, integer, boolean, text, integer, integer, integer, bigint, bigint, integer, double precision) TO runnect_runner;
