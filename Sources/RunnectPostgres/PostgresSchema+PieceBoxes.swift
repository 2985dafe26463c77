extension PostgresSchema {
    /// Version 9: each path piece is indexed by its longitude-latitude box, as SQLite's R*Tree
    /// indexes it, in place of the GiST index on its `geography`.
    ///
    /// - A piece keeps ``CoursePieces``' box (`west`, `south`, `east`, `north`, degrees: it
    ///   holds the legs' poleward bulge, reaches a pole its legs may pass near, and takes every
    ///   longitude when a leg crosses the antimeridian), and a two-dimensional GiST index holds
    ///   `ST_MakeEnvelope` of it (PostGIS's `geometry` boxes, 16 bytes an entry).
    /// - Near-me reads a ring through `runnect_nearby_box`: the pieces whose box meets the
    ///   ring's own (`NearbyBox`, which holds every point within the ring on the ellipsoid, split
    ///   in two at the antimeridian), each measured on the ellipsoid as before.
    /// - The pieces there are cut again, with their boxes, from each course's activity.
    ///
    /// Why: the `geography` index keys are boxes in three dimensions around the Earth's centre,
    /// which its inserts and its build split poorly: at 1,000,000 courses the 25 m ring at Jamsil
    /// met 846 pieces over some 2,200 index pages (13 of its 14 ms), and a `REINDEX` made it worse
    /// (3,309 pages). A two-dimensional box is what the question asks (SQLite's R*Tree answers
    /// it from the same boxes), its index splits boxes in the plane, and `CREATE INDEX` builds it
    /// sorted along a space-filling curve.
    ///
    /// Measured at a million courses (`runnect-bench pg near`, 2026-11-25): the flat box is
    /// looser (1,188 pieces meet the ring's at Jamsil, 704 the `geography` one) and measuring a
    /// piece costs about 12 µs, so the ring measures only the pieces that meet both; so read, the
    /// ring took 13.4–14.1 ms where version 8's took 22–23.5 on the same data. The inserts' index
    /// read 327 pages to find nothing in the Sahara, a built one 5: a copy into an empty store
    /// builds it after the courses. Near-me p95 20.2 → 14.5 ms.
    static let pieceBoxStatements: [String] = [
        "DROP INDEX course_piece_path",
        "DELETE FROM course_piece",
        """
        ALTER TABLE course_piece ADD COLUMN west float8 NOT NULL, ADD COLUMN south float8 NOT NULL,
            ADD COLUMN east float8 NOT NULL, ADD COLUMN north float8 NOT NULL
        """,
        pieceBoxIndex,
        "DROP FUNCTION runnect_nearby_ring(float8, float8, float8, text, integer)",
        nearbyBoxFunction,
        "REVOKE ALL ON FUNCTION runnect_nearby_box(\(nearbyBoxArguments)) FROM PUBLIC",
        "GRANT EXECUTE ON FUNCTION runnect_nearby_box(\(nearbyBoxArguments)) TO \(runnerGroup)",
    ]

    /// A piece's box as its index holds it (a query names the same expression), its columns
    /// read from `table` (`"p."`) or unqualified.
    static func pieceBox(_ table: String = "") -> String {
        "ST_MakeEnvelope(\(table)west, \(table)south, \(table)east, \(table)north)"
    }

    /// The pieces' box index, made if missing: by version 9, by `db init` (a copy stopped
    /// between dropping it and building it again leaves none), and after a copy into an empty
    /// store, which builds it whole (`PostgresBackend.copyCoursesBegin()`).
    static let pieceBoxIndex = "CREATE INDEX IF NOT EXISTS course_piece_box ON course_piece USING gist (\(pieceBox()))"

    static let nearbyBoxArguments = "float8, float8, float8, float8, float8, float8[], text, integer"

    /// The first `up_to` courses of `scope` (among those the caller may read) whose path passes
    /// within `ring` metres of the point, nearest first (then by id), each with its distance on
    /// the ellipsoid (`ST_Distance`): the smallest over the pieces whose box meets the ring's
    /// box, latitudes `lat_min`…`lat_max` and one or two longitude ranges (`lon_ranges`: west,
    /// east, and again past the antimeridian), and whose `geography` box meets the ring's box
    /// around the Earth's centre (`&&` with `_ST_Expand`, `ST_DWithin`'s own test, a fraction of
    /// a microsecond a piece where measuring one takes about 10: at Jamsil at a million courses,
    /// 1,188 pieces meet the first box and 704 the second). Every piece within `ring` of the
    /// point meets both, so the distances are exact. The caller widens the ring until the page
    /// is full or the ring is the radius asked for. Without parallel workers (starting one cost
    /// more than the query) or JIT compilation, as version 6's ring.
    static let nearbyBoxFunction = ringFunction(
        """
        runnect_nearby_box(lon float8, lat float8, ring float8, lat_min float8, lat_max float8,
                           lon_ranges float8[], scope text, up_to integer)
        """,
        pieces: """
            (\(pieceBox("p.")) && ST_MakeEnvelope(lon_ranges[1], lat_min, lon_ranges[2], lat_max)
                   OR \(pieceBox("p.")) && ST_MakeEnvelope(lon_ranges[3], lat_min, lon_ranges[4], lat_max))
              AND p.path && _ST_Expand(\(nearbyPoint), ring)
            """)
}
