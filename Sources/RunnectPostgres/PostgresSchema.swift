import PostgresNIO
import RunnectStore

/// The PostgreSQL store's schema: versioned migrations recorded in a `schema_version` table.
///
/// Append-only, as the SQLite migrations: a released migration is never edited. Each one runs
/// in the transaction of `runnect db init` that records it, under an advisory lock, so two
/// administrators initialising at once apply it once. A database with a version this build does
/// not know is refused before anything is written to it, with the SQLite store's
/// `StoreError.newerSchema(found:supported:)`.
///
/// PostgreSQL's versions count on their own: version 1 is the whole of SQLite's version 2
/// (courses, scraps, records, the search index), on PostGIS, with row-level security; version 2
/// keeps a course's path as one line per course segment (near-me search); version 3 searches
/// through a GIN index on the entries' tokens in place of the posting table; version 4 adds the
/// path pieces near-me search walks; version 5 reads a search's answer in order from the server;
/// version 6 reads the pieces near a point by growing rings; version 7 makes each course's
/// upkeep lighter (grams compared by bytes, pieces checked once a statement); version 8 gives
/// the search entries their course's scrap count and distance, to walk those orders alone;
/// version 9 indexes each piece by its longitude-latitude box, as SQLite's R*Tree does; version
/// 10 keeps each search entry's initials projection, to find keywords of initial consonants
/// with `strpos`; version 11 lets a search read on from a row it has seen; version 12 indexes
/// the grams in both a course's title and its departure as tokens of their own; version 13 lets
/// a search ask the planner how many entries hold a token, and reads a page's courses through a
/// plan the connection keeps; version 14 lets a search's walk read its order's index alone;
/// version 15 refuses derived values no store writes (check constraints and triggers on courses
/// and records); version 16 counts a search's estimates among the entries the caller may read;
/// version 17 keeps what other runners' records show of a course its owner deleted.
package enum PostgresSchema {
    /// One step of the schema.
    struct Migration: Sendable {
        var version: Int
        var name: String
        var statements: [String]
        /// What the statements cannot do in SQL, run after them in the same transaction.
        var afterwards: (@Sendable (PostgresSession) async throws -> Void)? = nil
        /// Tables the migration rewrote row by row, compacted (`VACUUM (FULL, ANALYZE)`) once its
        /// transaction has committed, where `VACUUM` can run.
        var compacted: [String] = []
    }

    /// Every migration, oldest first; a migration's version is its position from 1.
    static let migrations: [Migration] = [
        Migration(version: 1, name: "v1-courses-records-search", statements: tableStatements + securityStatements),
        Migration(
            version: 2, name: "v2-path-segments", statements: pathSegmentStatements, afterwards: rebuildPaths),
        Migration(version: 3, name: "v3-search-gin", statements: searchGINStatements),
        Migration(
            version: 4, name: "v4-path-pieces", statements: pieceStatements,
            afterwards: { try await fillPieces($0, boxes: false) }),
        Migration(version: 5, name: "v5-search-pages", statements: searchPageStatements),
        Migration(version: 6, name: "v6-nearby-rings", statements: nearbyRingStatements),
        Migration(version: 7, name: "v7-lighter-upkeep", statements: upkeepStatements),
        Migration(version: 8, name: "v8-search-orders", statements: searchOrderStatements),
        Migration(
            version: 9, name: "v9-piece-boxes", statements: pieceBoxStatements,
            afterwards: { try await fillPieces($0, boxes: true) }),
        Migration(
            version: 10, name: "v10-search-initials", statements: searchInitialsStatements, afterwards: fillInitials,
            compacted: ["course_search"]),
        Migration(version: 11, name: "v11-search-continued", statements: searchContinuedStatements),
        Migration(
            version: 12, name: "v12-search-both-fields", statements: searchBothFieldsStatements,
            compacted: ["course_search"]),
        Migration(version: 13, name: "v13-planned-reads", statements: plannedReadStatements),
        Migration(version: 14, name: "v14-covered-walks", statements: coveredWalkStatements),
        Migration(
            version: 15, name: "v15-derived-checks", statements: derivedCheckStatements,
            afterwards: checkExistingRows),
        Migration(version: 16, name: "v16-readable-estimates", statements: readableEstimateStatements),
        Migration(version: 17, name: "v17-deleted-courses", statements: deletedCourseStatements),
    ]

    /// The newest schema version this build knows.
    package static var supportedVersion: Int { migrations.count }

    /// Serialises `runnect db init` runs on one database (`pg_advisory_xact_lock`).
    static let lockKey: Int64 = 0x5255_4E4E_4543_5401

    /// Where the applied versions are kept.
    static let versionTableStatement = """
        CREATE TABLE IF NOT EXISTS schema_version (
            version integer PRIMARY KEY,
            name text NOT NULL,
            applied_at timestamptz NOT NULL DEFAULT now()
        )
        """

    /// The versions applied to the database, `[]` when it has no `schema_version` table yet.
    static func appliedVersions(_ session: PostgresSession) async throws -> [Int: String] {
        let table = try await session.query("SELECT to_regclass('public.schema_version') IS NOT NULL")
        guard try table.first?.decode(Bool.self) == true else { return [:] }
        var versions: [Int: String] = [:]
        for row in try await session.query("SELECT version, name FROM schema_version") {
            let (version, name) = try row.decode((Int, String).self)
            versions[version] = name
        }
        return versions
    }

    /// The database's schema version: the number of migrations applied.
    ///
    /// - Throws: `StoreError.newerSchema(found:supported:)` for a version or a
    ///   migration name this build does not know.
    package static func checkedVersion(_ session: PostgresSession) async throws -> Int {
        let applied = try await appliedVersions(session)
        let found = applied.keys.max() ?? 0
        let known = applied.allSatisfy { version, name in
            version >= 1 && version <= supportedVersion && migrations[version - 1].name == name
        }
        guard known else { throw StoreError.newerSchema(found: found, supported: supportedVersion) }
        return found
    }

    /// Applies the migrations the database lacks, up to version `last`; returns the versions
    /// applied.
    ///
    /// Call inside a transaction holding the advisory lock (``lockKey``). The caller has checked
    /// the version without writing (``checkedVersion(_:)``); it is checked again here, under the
    /// lock, as another administrator may have migrated meanwhile.
    static func migrate(_ session: PostgresSession, upTo last: Int = supportedVersion) async throws -> [Int] {
        try await session.execute([versionTableStatement])
        let current = try await checkedVersion(session)
        var applied: [Int] = []
        for migration in migrations where migration.version > current && migration.version <= last {
            try await session.execute(migration.statements)
            try await migration.afterwards?(session)
            try await session.query(
                "INSERT INTO schema_version (version, name) VALUES (\(migration.version), \(migration.name))")
            applied.append(migration.version)
        }
        return applied
    }
}
