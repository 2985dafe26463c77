extension PostgresSchema {
    /// The group role every runner's login role belongs to (``PostgresAdministration``): the
    /// grants below are made to it.
    static let runnerGroup = "runnect_runner"

    /// Version 1's triggers, row-level security policies and grants: the database itself refuses
    /// what the store refuses.
    ///
    /// The tables belong to the administrator who ran `runnect db init` and are not forced
    /// under row-level security, so their owner (and a superuser) sees every row; a runner sees
    /// and changes rows through the policies only:
    ///
    /// | table | a runner reads | inserts | updates | deletes |
    /// |---|---|---|---|---|
    /// | `course` | own and shared courses | own | own (title, description, departure, sharing) | own |
    /// | `scrap` | own scraps | own, of a shared course | — | own |
    /// | `record` | own records | own, of a course they can read | own (title) | own |
    /// | `course_search` | entries of courses they can read | of own courses | — | own |
    /// | `course_search_token` | — | — | — | — |
    ///
    /// Column grants keep the counters (`scrap_count`, `record_count`), ids and the sharing of a
    /// new course out of a runner's hands. The counters are kept by `SECURITY DEFINER` triggers
    /// (a scrap changes another runner's course row); un-sharing a course deletes its scraps and
    /// updates its search entry, also by trigger. The search postings would tell which grams a
    /// private course holds, so runners cannot read them at all: searching goes through
    /// `runnect_search_candidates`, a `SECURITY DEFINER` function that returns only the ids of
    /// courses the caller may read.
    static let securityStatements: [String] =
        triggerStatements + policyStatements + grantStatements

    static let definer = "LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp"

    /// A trigger function and its trigger keeping `course.<column>` the count of `table`'s rows.
    private static func counter(function: String, trigger: String, table: String, column: String) -> [String] {
        [
            """
            CREATE FUNCTION \(function)() RETURNS trigger \(definer) AS $$
            BEGIN
                IF TG_OP = 'INSERT' THEN
                    UPDATE course SET \(column) = \(column) + 1 WHERE id = NEW.course_id;
                ELSE
                    UPDATE course SET \(column) = \(column) - 1 WHERE id = OLD.course_id;
                END IF;
                RETURN NULL;
            END $$
            """,
            "CREATE TRIGGER \(trigger) AFTER INSERT OR DELETE ON \(table) FOR EACH ROW EXECUTE FUNCTION \(function)()",
        ]
    }

    private static let triggerStatements: [String] =
        counter(function: "runnect_count_scraps", trigger: "scrap_counted", table: "scrap", column: "scrap_count")
        + counter(function: "runnect_count_records", trigger: "record_counted", table: "record", column: "record_count")
        + [
            """
            CREATE FUNCTION runnect_sharing_changed() RETURNS trigger \(definer) AS $$
            BEGIN
                UPDATE course_search SET is_uploaded = NEW.is_uploaded WHERE course_id = NEW.id;
                IF OLD.is_uploaded AND NOT NEW.is_uploaded THEN
                    DELETE FROM scrap WHERE course_id = NEW.id;
                END IF;
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER course_sharing_changed AFTER UPDATE OF is_uploaded ON course FOR EACH ROW
                WHEN (OLD.is_uploaded IS DISTINCT FROM NEW.is_uploaded) EXECUTE FUNCTION runnect_sharing_changed()
            """,
            // A search entry takes its owner and sharing from its course, whatever the insert says.
            """
            CREATE FUNCTION runnect_search_entry_added() RETURNS trigger \(definer) AS $$
            BEGIN
                SELECT owner, is_uploaded INTO NEW.owner, NEW.is_uploaded FROM course WHERE id = NEW.course_id;
                RETURN NEW;
            END $$
            """,
            """
            CREATE TRIGGER course_search_entry BEFORE INSERT ON course_search FOR EACH ROW
                EXECUTE FUNCTION runnect_search_entry_added()
            """,
            """
            CREATE FUNCTION runnect_search_postings() RETURNS trigger \(definer) AS $$
            BEGIN
                INSERT INTO course_search_token (token, course_id)
                    SELECT DISTINCT unnest(NEW.tokens), NEW.course_id;
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER course_search_postings AFTER INSERT ON course_search FOR EACH ROW
                EXECUTE FUNCTION runnect_search_postings()
            """,
            searchCandidatesFunction,
        ]

    /// The search's candidates: the ids of the courses holding, for every keyword, all its grams
    /// in one field, among those the caller may read (shared, or their own unless
    /// `shared_only`), at most `up_to` of them.
    ///
    /// Each element of `keywords` is one keyword's grams, space-separated, as index tokens without
    /// their field letter (`t`, `d`, `p`); they are the index's own `[0-9a-z]` tokens, never
    /// what the user typed. The caller is the role that called (`SET ROLE` included), not the
    /// function's owner: the `role` setting, which only a member of the role can set, else the
    /// session's user. A superset of the matches: the store checks each against its text.
    static let searchCandidatesFunction = """
        CREATE FUNCTION runnect_search_candidates(keywords text[], shared_only boolean, up_to integer)
        RETURNS SETOF bigint LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
            WITH words AS (
                SELECT ord, string_to_array(grams, ' ') AS grams
                FROM unnest(keywords) WITH ORDINALITY AS w(grams, ord)
            ),
            hits AS (
                SELECT DISTINCT w.ord, p.course_id
                FROM words w
                CROSS JOIN unnest(ARRAY['t', 'd', 'p']) AS f(prefix)
                CROSS JOIN LATERAL (
                    SELECT t.course_id FROM course_search_token t
                    WHERE t.token = ANY (ARRAY(SELECT f.prefix || g FROM unnest(w.grams) AS g))
                    GROUP BY t.course_id HAVING count(*) = cardinality(w.grams)
                ) p
            ),
            matched AS (
                SELECT course_id FROM hits GROUP BY course_id HAVING count(*) = (SELECT count(*) FROM words)
            )
            SELECT m.course_id FROM matched m JOIN course_search s ON s.course_id = m.course_id
            WHERE s.is_uploaded OR (NOT shared_only AND s.owner = CASE current_setting('role')
                WHEN 'none' THEN session_user::text ELSE current_setting('role') END)
            LIMIT up_to
        $$
        """

    private static let policyStatements: [String] = [
        "ALTER TABLE course ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY course_read ON course FOR SELECT USING (is_uploaded OR owner = current_user)",
        "CREATE POLICY course_add ON course FOR INSERT WITH CHECK (owner = current_user)",
        """
        CREATE POLICY course_change ON course FOR UPDATE
            USING (owner = current_user) WITH CHECK (owner = current_user)
        """,
        "CREATE POLICY course_remove ON course FOR DELETE USING (owner = current_user)",

        "ALTER TABLE scrap ENABLE ROW LEVEL SECURITY",
        #"CREATE POLICY scrap_read ON scrap FOR SELECT USING ("user" = current_user)"#,
        #"""
        CREATE POLICY scrap_add ON scrap FOR INSERT WITH CHECK (
            "user" = current_user
            AND EXISTS (SELECT 1 FROM course WHERE course.id = course_id AND course.is_uploaded))
        """#,
        #"CREATE POLICY scrap_remove ON scrap FOR DELETE USING ("user" = current_user)"#,

        "ALTER TABLE record ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY record_read ON record FOR SELECT USING (owner = current_user)",
        """
        CREATE POLICY record_add ON record FOR INSERT WITH CHECK (
            owner = current_user AND EXISTS (SELECT 1 FROM course WHERE course.id = course_id))
        """,
        """
        CREATE POLICY record_change ON record FOR UPDATE
            USING (owner = current_user) WITH CHECK (owner = current_user)
        """,
        "CREATE POLICY record_remove ON record FOR DELETE USING (owner = current_user)",

        "ALTER TABLE course_search ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY search_read ON course_search FOR SELECT USING (is_uploaded OR owner = current_user)",
        """
        CREATE POLICY search_add ON course_search FOR INSERT WITH CHECK (
            EXISTS (SELECT 1 FROM course WHERE course.id = course_id AND course.owner = current_user))
        """,
        "CREATE POLICY search_remove ON course_search FOR DELETE USING (owner = current_user)",

        "ALTER TABLE course_search_token ENABLE ROW LEVEL SECURITY",
    ]

    private static let grantStatements: [String] = [
        "REVOKE ALL ON course, scrap, record, course_search, course_search_token, schema_version FROM PUBLIC",
        """
        REVOKE ALL ON FUNCTION runnect_count_scraps(), runnect_count_records(), runnect_sharing_changed(),
            runnect_search_entry_added(), runnect_search_postings() FROM PUBLIC
        """,
        "GRANT SELECT ON schema_version TO \(runnerGroup)",
        "GRANT SELECT, DELETE ON course, scrap, record, course_search TO \(runnerGroup)",
        "REVOKE ALL ON FUNCTION runnect_search_candidates(text[], boolean, integer) FROM PUBLIC",
        "GRANT EXECUTE ON FUNCTION runnect_search_candidates(text[], boolean, integer) TO \(runnerGroup)",
        """
        GRANT INSERT (owner, title, description, departure_region, departure_city, departure_town,
            departure_detail, departure_name, source_format, content_hash, created_at, distance_m, point_count,
            stats, geometry, path, start_lat, start_lon, finish_lat, finish_lon, path_m) ON course TO \(runnerGroup)
        """,
        """
        GRANT UPDATE (title, description, departure_region, departure_city, departure_town, departure_detail,
            departure_name, is_uploaded, uploaded_at) ON course TO \(runnerGroup)
        """,
        #"GRANT INSERT (course_id, "user", created_at) ON scrap TO \#(runnerGroup)"#,
        """
        GRANT INSERT (owner, course_id, title, source_format, content_hash, created_at, start_time, distance_m,
            point_count, device_timer_time_s, course_time_s, course_distance_m, match_coverage, stats, geometry)
            ON record TO \(runnerGroup)
        """,
        "GRANT UPDATE (title) ON record TO \(runnerGroup)",
        """
        GRANT INSERT (course_id, created_ms, title, description, departure, tokens)
            ON course_search TO \(runnerGroup)
        """,
    ]
}
