extension PostgresSchema {
    /// Version 8: a search entry carries its course's scrap count and distance, so that a search
    /// in scrap or distance order walks the entries' own index, as one newest first always did.
    ///
    /// Why: `runnect_search_page` walked `course`'s index in those orders and joined each course
    /// to its entry, two rows read at random for every course walked; at 1,000,000 courses
    /// (`runnect-bench pg search`, 2026-11-25) the distance-order walks (`야경`, `10k`,
    /// `석촌호수`) took 13–17 ms at p95 where the newest-first walks took 5–7.
    ///
    /// A new entry takes both from its course (the trigger that already gives it the owner and
    /// sharing); the scrap counter's trigger counts in both rows. `course_scraps` and
    /// `course_distance`, which only `search --all` walked, are dropped; the shared lists keep
    /// `course`'s own indexes.
    static let searchOrderStatements: [String] = [
        """
        ALTER TABLE course_search ADD COLUMN scrap_count integer NOT NULL DEFAULT 0,
                                  ADD COLUMN distance_m double precision NOT NULL DEFAULT 0
        """,
        """
        UPDATE course_search s SET scrap_count = c.scrap_count, distance_m = c.distance_m
        FROM course c WHERE c.id = s.course_id
        """,
        "CREATE INDEX course_search_scraps ON course_search (scrap_count, created_ms, course_id)",
        "CREATE INDEX course_search_shared_scraps ON course_search (scrap_count, created_ms, course_id) WHERE is_uploaded",
        "CREATE INDEX course_search_distance ON course_search (distance_m, course_id)",
        "CREATE INDEX course_search_shared_distance ON course_search (distance_m, course_id) WHERE is_uploaded",
        "DROP INDEX course_scraps",
        "DROP INDEX course_distance",
        """
        CREATE OR REPLACE FUNCTION runnect_search_entry_added() RETURNS trigger \(definer) AS $$
        BEGIN
            SELECT owner, is_uploaded, scrap_count, distance_m
            INTO NEW.owner, NEW.is_uploaded, NEW.scrap_count, NEW.distance_m
            FROM course WHERE id = NEW.course_id;
            RETURN NEW;
        END $$
        """,
        """
        CREATE OR REPLACE FUNCTION runnect_count_scraps() RETURNS trigger \(definer) AS $$
        DECLARE
            counted bigint := CASE TG_OP WHEN 'INSERT' THEN NEW.course_id ELSE OLD.course_id END;
            change integer := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
        BEGIN
            UPDATE course SET scrap_count = scrap_count + change WHERE id = counted;
            UPDATE course_search SET scrap_count = scrap_count + change WHERE course_id = counted;
            RETURN NULL;
        END $$
        """,
        searchPageMatching(create: "CREATE OR REPLACE FUNCTION", settings: " SET jit = off") + "\n"
            + searchPageOrders(),
    ]

    /// The rest of `runnect_search_page` since version 8: every order walks (or sorts) the
    /// entries alone, through their own indexes; the page's query is given `using` as its
    /// parameters (`$1`, `$2`, …: version 10 adds the initials needles as `$6`) and each row's
    /// columns are `selected` (a PL/pgSQL text expression ending in ` FROM (`).
    static func searchPageOrders(
        using: String = "caller, needles, skip, up_to, walk",
        selected: String = """
        'SELECT s.course_id, s.created_ms, s.title, s.description, s.departure, s.scrap_count, '
                || 's.distance_m FROM ('
        """
    ) -> String {
        searchPageOrdered(scrapTie: "s.created_ms") + "\n" + """
                -- The entries in order, as `s`: the first `walk` readable ones through the order's
                -- index (the shared entries' own when shared_only), the matching ones among them; or
                -- every match the GIN index finds, sorted (`OFFSET 0` keeps the planner from
                -- walking the order's index instead).
                page := 'SELECT * FROM ' || CASE WHEN walk IS NULL
                    THEN '(SELECT * FROM course_search s WHERE ' || readable || ' AND ' || matching || ' OFFSET 0) s'
                    ELSE '(SELECT * FROM course_search s WHERE ' || readable || ' ORDER BY ' || ordered
                         || ' LIMIT $5) s WHERE ' || matching END;
                page := \(selected) || page || ' ORDER BY ' || ordered || ' OFFSET $3 LIMIT $4) s ORDER BY '
                    || ordered;
                RETURN QUERY EXECUTE page USING \(using);
            END $$
            """
    }
}
