-- PostgreSQL schema version 12 (v12-search-both-fields), as shipped: never edit this file; add a new version.
-- PostgresSchema runs its statements in order, each on its own (a statement ends at a
-- semicolon outside quotes, dollar quotes and comments).
--
-- Version 12: a search entry's tokens also hold, as `b` tokens, the grams in both its title
-- and its departure (`SearchIndex.NormalizedRow.bothFieldsDocument`), and a relevance tier
-- asks for a keyword in both fields by those (`PostgresSearch.clauses(tier:)`).
--
-- Why: at a million courses `ㅇㄹㅍ`'s top tier (in the title and in the departure) asked
-- the GIN index for entries with its gram in the title (26,344 of them) and in the departure
-- (58,000): 3.1 ms to intersect the two lists for 1,549 entries, and `석ㅊㅎ`'s the same
-- (`runnect-bench pg search`, `auto_explain`, 2026-11-27). The `b` token's list is those
-- 1,549.
--
-- The entries there get theirs from the tokens they hold (a `t` token whose `p` twin is
-- there too: the same grams `bothFieldsDocument` finds); the table, rewritten, is compacted
-- after the migration.

UPDATE course_search s SET tokens = s.tokens || both_fields.tokens
FROM (SELECT course_id,
             ARRAY(SELECT 'b' || substr(x, 2) FROM unnest(tokens) AS x WHERE left(x, 1) = 't'
                   INTERSECT
                   SELECT 'b' || substr(x, 2) FROM unnest(tokens) AS x WHERE left(x, 1) = 'p') AS tokens
      FROM course_search) AS both_fields
WHERE both_fields.course_id = s.course_id AND cardinality(both_fields.tokens) > 0;
