import Foundation
import PostgresNIO
import RunnectStore

extension PostgresAdministration {
    /// The tables `optimize(_:)` vacuums and analyses: every one a course write adds rows to.
    static let optimizedTables = ["course", "course_search", "course_piece", "record", "scrap"]

    /// `runnect db optimize`: upkeep of a store that imports have grown, as the tables' owner,
    /// while runners go on reading and writing.
    ///
    /// 1. The pieces' box index (schema 9) is rebuilt by `REINDEX INDEX CONCURRENTLY`. A copy
    ///    into an empty store builds it whole, sorted along a space-filling curve; imports add to
    ///    it one piece at a time, and at a million courses such an index read 327 pages to find
    ///    nothing in the Sahara where the built one reads 5, and near-me's p95 was 27.6 ms where
    ///    the built one gives 14.5 (`Documentation/Postgres.md`). What a rebuild that was
    ///    stopped left (`course_piece_box_ccnew` or `_ccold`, invalid) is dropped first; a missing index
    ///    (a copy stopped between dropping and building it) is built.
    /// 2. `VACUUM (ANALYZE)` of the tables courses are written to: the GIN index's pending
    ///    entries go into the index proper, the visibility map lets searches read their
    ///    indexes alone, and the planner gets the tables' figures.
    ///
    /// Neither blocks a runner's reads or writes (each takes a `SHARE UPDATE EXCLUSIVE` lock;
    /// `db init` and another optimize wait for it). Neither can run inside a transaction, so a
    /// stop halfway leaves what finished done and the rest as it was; running it again finishes.
    ///
    /// - Throws: ``PostgresAdministrationError/notTablesOwner(role:owner:)`` for a role that
    ///   does not own the store's tables (nothing is changed),
    ///   ``PostgresAdministrationError/notInitialized(database:)``,
    ///   ``PostgresAdministrationError/olderSchema(found:supported:)``,
    ///   `StoreError.newerSchema(found:supported:)`, and `StoreError.database(_:)` for what the
    ///   server refuses.
    ///
    /// - Parameters:
    ///   - url: The store, connected to as its tables' owner.
    ///   - stepDone: Called with each step once it has finished (a rebuild at a million courses
    ///     takes about a minute), for a command to show.
    public static func optimize(
        _ url: PostgresURL, stepDone: @Sendable (OptimizeReport.Step) -> Void = { _ in }
    ) async throws -> OptimizeReport {
        try await PostgresSession.with(url) { session in
            let version = try await PostgresSchema.checkedVersion(session)
            guard version > 0 else {
                throw PostgresAdministrationError.notInitialized(
                    database: try await session.query("SELECT current_database()::text")[0].decode(String.self))
            }
            guard version == PostgresSchema.supportedVersion else {
                throw PostgresAdministrationError.olderSchema(
                    found: version, supported: PostgresSchema.supportedVersion)
            }
            try await requireTablesOwner(session)
            var steps: [OptimizeReport.Step] = []
            steps.append(try await rebuildBoxIndex(session))
            stepDone(steps[0])
            let start = ContinuousClock.now
            try await session.query("VACUUM (ANALYZE) \(unescaped: optimizedTables.joined(separator: ", "))")
            steps.append(
                OptimizeReport.Step(
                    name: "tables vacuumed and analysed (\(optimizedTables.joined(separator: ", ")))",
                    seconds: (ContinuousClock.now - start) / .seconds(1)))
            stepDone(steps[1])
            return OptimizeReport(path: url.description, backend: "postgresql", steps: steps)
        }
    }

    /// Rebuilds the pieces' box index without blocking its table's writers.
    private static func rebuildBoxIndex(_ session: PostgresSession) async throws -> OptimizeReport.Step {
        // A stopped `REINDEX CONCURRENTLY` leaves an invalid `_ccnew` (building) or `_ccold`
        // (swapped out, not yet dropped), numbered when one was there already.
        let leftovers = try await session.query(
            """
            SELECT c.relname::text FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            WHERE c.relname ~ '^course_piece_box_cc(new|old)[0-9]*$' AND c.relnamespace = 'public'::regnamespace
              AND NOT i.indisvalid
            """)
        for row in leftovers {
            // The name matched `[a-z_0-9]` only, so it is safe to name in the statement.
            try await session.query("DROP INDEX CONCURRENTLY public.\(unescaped: try row.decode(String.self))")
        }
        let before = try await boxIndexBytes(session)
        let start = ContinuousClock.now
        if before == nil {
            try await session.query(
                "CREATE INDEX CONCURRENTLY course_piece_box ON course_piece USING gist (\(unescaped: PostgresSchema.pieceBox()))"
            )
        } else {
            try await session.query("REINDEX INDEX CONCURRENTLY course_piece_box")
        }
        return OptimizeReport.Step(
            name: before == nil ? "near-me box index built" : "near-me box index rebuilt", before: before,
            after: try await boxIndexBytes(session), unit: "bytes", seconds: (ContinuousClock.now - start) / .seconds(1)
        )
    }

    /// The size of the pieces' box index, `nil` when there is none.
    private static func boxIndexBytes(_ session: PostgresSession) async throws -> Int? {
        try await session.query("SELECT pg_relation_size(to_regclass('public.course_piece_box'))")[0]
            .decode(Int?.self)
    }

    /// `REINDEX` and `VACUUM` need the tables' owner (or a superuser): refused before anything
    /// runs rather than halfway, or as a `VACUUM` that skips every table with a warning. So does
    /// `db check`, which must see every row past the row-level security policies.
    static func requireTablesOwner(_ session: PostgresSession) async throws {
        let rows = try await session.query(
            """
            SELECT current_user::text, pg_get_userbyid(relowner)::text, pg_has_role(current_user, relowner, 'USAGE')
            FROM pg_class WHERE oid = 'public.course_piece'::regclass
            """)
        let (role, owner, owns) = try rows[0].decode((String, String, Bool).self)
        guard owns else { throw PostgresAdministrationError.notTablesOwner(role: role, owner: owner) }
    }
}
