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
    /// | `course_search` | entries of courses they can read | of own courses | `in_order` of own | own |
    /// | `course_search_token` | — | — | — | — |
    ///
    /// Column grants keep the counters (`scrap_count`, `record_count`), ids and the sharing of a
    /// new course out of a runner's hands. The counters are kept by `SECURITY DEFINER` triggers
    /// (a scrap changes another runner's course row); un-sharing a course deletes its scraps and
    /// updates its search entry, also by trigger. The search postings would tell which grams a
    /// private course holds, so runners cannot read them at all: searching will go through a
    /// function that joins them to what the runner may read.
    static let securityStatements: [String] =
        triggerStatements + policyStatements + grantStatements

    private static let definer = "LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp"

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
        ]

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
        """
        CREATE POLICY search_change ON course_search FOR UPDATE
            USING (owner = current_user) WITH CHECK (owner = current_user)
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
        """
        GRANT INSERT (owner, title, description, departure_region, departure_city, departure_town,
            departure_detail, departure_name, source_format, content_hash, created_at, distance_m, point_count,
            stats, geometry, path) ON course TO \(runnerGroup)
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
        GRANT INSERT (course_id, created_ms, in_order, title, description, departure, tokens)
            ON course_search TO \(runnerGroup)
        """,
        "GRANT UPDATE (in_order) ON course_search TO \(runnerGroup)",
    ]
}
