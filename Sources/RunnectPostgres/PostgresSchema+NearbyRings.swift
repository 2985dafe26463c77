extension PostgresSchema {
    /// Version 6: near-me search reads the path pieces by growing rings (`runnect_nearby_ring`),
    /// as on SQLite, in place of version 4's nearest-first walk of the GiST index
    /// (`runnect_nearby`); keyword + near measures its matches through their pieces
    /// (`runnect_course_distances`); and the search's page function is kept from JIT compilation.
    ///
    /// Why: in central Seoul at 1,000,000 courses (`runnect-bench pg near 1000000`, 2026-11-25)
    /// about 950 pieces' boxes hold the point itself, so the nearest-first walk (`<->` on
    /// `geography`) visited some 2,200 index pages and measured each of their entries on the
    /// sphere, 35–50 ms to its first 80 pieces with every page in memory; the same pages read for
    /// box overlap (`&&`) take a fifth of that. A ring of 25 m there holds 846 boxes, 190 pieces
    /// within it, and its page of 20 courses took 14 ms, measured on the ellipsoid and tested for
    /// the scope only for the courses within the ring.
    ///
    /// And all three functions run without JIT compilation: at a million courses the planner's costs
    /// pass `jit_above_cost`, and compiling a query's expressions took about 6 ms, more than
    /// most searches themselves take (a page of a common keyword's walk, about 1 ms).
    static let nearbyRingStatements: [String] = [
        "DROP FUNCTION runnect_nearby(float8, float8, float8, text, integer)",
        nearbyRingFunction,
        "REVOKE ALL ON FUNCTION runnect_nearby_ring(float8, float8, float8, text, integer) FROM PUBLIC",
        "GRANT EXECUTE ON FUNCTION runnect_nearby_ring(float8, float8, float8, text, integer) TO \(runnerGroup)",
        "ALTER FUNCTION runnect_search_page(text[], text[], integer, integer, boolean, text, integer, integer, integer) "
            + "SET jit = off",
        courseDistancesFunction,
        "REVOKE ALL ON FUNCTION runnect_course_distances(bigint[], float8, float8, float8) FROM PUBLIC",
        "GRANT EXECUTE ON FUNCTION runnect_course_distances(bigint[], float8, float8, float8) TO \(runnerGroup)",
    ]

    /// The distances from the point of those courses of `ids` the caller may read whose path
    /// passes within `radius` metres of it: the smallest over their pieces (read by course, then
    /// tested against the radius's box, so a far course costs a few box tests), on the ellipsoid.
    /// What keyword + near search asks of each batch of keyword matches; version 5 measured each
    /// match's whole path instead (`ST_Distance` on a `MultiLineString` of every point):
    /// 890 of the 1,500 ms the four keyword + near queries took at 100,000 courses.
    static let courseDistancesFunction = """
        CREATE FUNCTION runnect_course_distances(ids bigint[], lon float8, lat float8, radius float8)
        RETURNS TABLE (id bigint, meters float8)
        LANGUAGE sql STABLE SECURITY DEFINER
        SET search_path = public, pg_temp SET max_parallel_workers_per_gather = 0 SET jit = off AS $$
            SELECT near.course_id, near.meters
            FROM (SELECT p.course_id, min(ST_Distance(p.path, \(nearbyPoint))) AS meters
                  FROM (SELECT course_id, path FROM course_piece WHERE course_id = ANY(ids) OFFSET 0) p
                  WHERE p.path && _ST_Expand(\(nearbyPoint), radius)
                  GROUP BY p.course_id) near
            JOIN course c ON c.id = near.course_id
            WHERE near.meters <= radius
              AND (c.is_uploaded OR c.owner = CASE current_setting('role') WHEN 'none' THEN session_user::text
                                                ELSE current_setting('role') END)
        $$
        """

    /// The first `up_to` courses of `scope` (among those the caller may read) whose path passes
    /// within `ring` metres of the point, nearest first (then by id), each with its distance on
    /// the ellipsoid (`ST_Distance`): the smallest over the pieces whose box meets the ring's
    /// (every piece within `ring` of the point does: `_ST_Expand` widens the box by 1 % more than
    /// the distance on the sphere, for distances on the ellipsoid, which `ST_DWithin` relies on
    /// too; so the distances are exact). The caller
    /// widens the ring until the page is full or the ring is the radius asked for. Without
    /// parallel workers: starting one cost more than the query (17 ms for an empty ring).
    static let nearbyRingFunction = ringFunction(
        "runnect_nearby_ring(lon float8, lat float8, ring float8, scope text, up_to integer)",
        pieces: "p.path && _ST_Expand(\(nearbyPoint), ring)")

    /// A ring function, `signature` its name and arguments (`lon`, `lat`, `ring`, `scope` and
    /// `up_to` among them): the first `up_to` courses of `scope` the caller may read, nearest
    /// first, each as near as its nearest piece of those that meet the condition `pieces` (on
    /// `p`, a `course_piece`) and lie within `ring` metres.
    static func ringFunction(_ signature: String, pieces condition: String) -> String {
        """
        CREATE FUNCTION \(signature)
        RETURNS TABLE (id bigint, meters float8)
        LANGUAGE sql STABLE SECURITY DEFINER
        SET search_path = public, pg_temp SET max_parallel_workers_per_gather = 0 SET jit = off AS $$
            SELECT near.course_id, near.meters
            FROM (SELECT p.course_id, min(ST_Distance(p.path, \(nearbyPoint))) AS meters
                  FROM course_piece p
                  WHERE \(condition)
                  GROUP BY p.course_id) near
            JOIN course c ON c.id = near.course_id
            WHERE near.meters <= ring AND \(nearbyScopeTest)
            ORDER BY near.meters, near.course_id
            LIMIT up_to
        $$
        """
    }
}
