extension PostgresSchema {
    /// Version 16: `runnect_search_estimate(tokens, up_to)` counts the search entries holding any
    /// of `tokens` that the caller may read, up to `up_to + 1`, as the caller (row-level security
    /// applies), in place of version 13's planner estimate over every entry.
    ///
    /// Why: version 13's function ran as the tables' owner and read the planner's estimate from
    /// the table's statistics, which count every entry: another runner's private titles showed
    /// in it (a runner cannot read `pg_stats` of a table under row-level security, so it told more
    /// than `pg_stats` does), and its threshold for an unknown token was a session setting
    /// (`runnect.unknown_token_estimate`) the runner could set. The count reveals only entries the
    /// runner may read (and could count by searching), and reads no setting.
    ///
    /// The count is exact where the estimate was a guess, so a token the statistics did not list
    /// is counted too; it stops after `up_to + 1` entries (``PostgresSearchPlans/topTierRows``,
    /// 2,000), past which the search does not read the tier first anyway. A search asks it once a
    /// token while the table's size stays the same (`PostgresSearchEstimates`).
    static let readableEstimateStatements: [String] = [
        "DROP FUNCTION runnect_search_estimate(text[])",
        """
        CREATE FUNCTION runnect_search_estimate(tokens text[], up_to bigint) RETURNS double precision
        LANGUAGE sql STABLE SET search_path = public, pg_temp AS $$
            SELECT count(*)::double precision FROM (SELECT 1 FROM course_search s WHERE s.tokens && $1 LIMIT $2 + 1) m
        $$
        """,
        "REVOKE ALL ON FUNCTION runnect_search_estimate(text[], bigint) FROM PUBLIC",
        "GRANT EXECUTE ON FUNCTION runnect_search_estimate(text[], bigint) TO \(runnerGroup)",
    ]
}
