extension PostgresSchema {
    /// Version 14: the search entries' order indexes (`course_search_newest`, `_scraps` and
    /// `_distance`, and the `course_search_shared_` ones of the shared entries) carry every
    /// column a walk reads (`INCLUDE`), so that `runnect_search_page`'s walk reads its order's
    /// index alone (an index-only scan) where the visibility map shows the entries' pages
    /// all-visible: after a copy's autovacuum, or `runnect db optimize`.
    ///
    /// Why: an entry's row is 1.5 KB (its tokens), five to a page. At a million courses `잠실`'s
    /// walk of the 4,096 newest shared entries read 1,600 pages of the table and the index, 3.0
    /// ms before any keyword was tested (`EXPLAIN ANALYZE`, 2026-11-27); from the covering index,
    /// 177 pages and 1.0 ms. A walk in scrap or distance order read a page of the table for
    /// nearly every entry (`야경`'s walk of 1,024 in distance order, 5.2 ms on the server). In
    /// alternating benchmark runs at a million courses (index-only scans off, then on), p95
    /// went from 11.6 to 7.4 ms for `잠실`, 11.4 to 8.8 for `a`, 8.1 to 5.3 for `야경`.
    ///
    /// The covering indexes are wider: at a million courses 179–182 MB each for the 600,000
    /// shared entries, 310–315 MB for all of them, where their keys alone took 22–47 MB; a copy's
    /// pace was unchanged (alternating runs of 100,000 courses). Each is built under a new name,
    /// the old one dropped and the new one given its name.
    static let coveredWalkStatements: [String] = [
        ("newest", ["created_ms", "course_id"]), ("scraps", ["scrap_count", "created_ms", "course_id"]),
        ("distance", ["distance_m", "course_id"]),
    ].flatMap { order, key in
        coveringIndex("course_search_\(order)", key: key, shared: false)
            + coveringIndex("course_search_shared_\(order)", key: key, shared: true)
    }

    /// What `runnect_search_page` reads of an entry it walks, besides its id and what decides
    /// whether the caller may read it (`owner`, `is_uploaded`): the keys of every order, the
    /// columns a row of its answer gives, and the texts and initials its `strpos` tests look in.
    static let walkedColumns = [
        "created_ms", "scrap_count", "distance_m", "title", "description", "departure", "title_initials",
        "description_initials", "departure_initials",
    ]

    /// The statements replacing the index `name` of an order (`key`), of the shared entries
    /// when `shared` (of all of them, with what tells who may read each, when not), by one that
    /// also carries every other column a walk reads.
    static func coveringIndex(_ name: String, key: [String], shared: Bool) -> [String] {
        let included = (shared ? [] : ["owner", "is_uploaded"]) + walkedColumns.filter { !key.contains($0) }
        return [
            "CREATE INDEX \(name)_covering ON course_search (\(key.joined(separator: ", "))) INCLUDE ("
                + included.joined(separator: ", ") + ")" + (shared ? " WHERE is_uploaded" : ""),
            "DROP INDEX \(name)",
            "ALTER INDEX \(name)_covering RENAME TO \(name)",
        ]
    }
}
