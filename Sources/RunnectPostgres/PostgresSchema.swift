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
/// version 17 keeps what other runners' records show of a course its owner deleted; version 18
/// adds runners as the Runnect app knows them (ids, nicknames, stamps, sign-in identities and
/// accounts, roles made for sign-ups), map images of courses, and runs the app reported.
package enum PostgresSchema {
    /// One step of the schema: the statements of its SQL file (`Migrations/vNN-name.sql`, as
    /// shipped), and what they cannot do in SQL, in a frozen Swift file beside it.
    struct Migration: Sendable {
        var version: Int
        var name: String
        var statements: [String]
        /// What the statements cannot do in SQL, run after them in the same transaction.
        var afterwards: (@Sendable (PostgresSession) async throws -> Void)? = nil
        /// Tables the migration rewrote row by row, compacted (`VACUUM (FULL, ANALYZE)`) once its
        /// transaction has committed, where `VACUUM` can run.
        var compacted: [String] = []

        init(
            _ version: Int, _ name: String, _ script: [UInt8],
            afterwards: (@Sendable (PostgresSession) async throws -> Void)? = nil, compacted: [String] = []
        ) {
            self.version = version
            self.name = name
            statements = PostgresScript.statements(script)
            self.afterwards = afterwards
            self.compacted = compacted
        }
    }

    /// Every migration, oldest first; a migration's version is its position from 1. Each runs
    /// its file as shipped (`PostgresMigrationChecksumTests` pins them) and calls no live code.
    static let migrations: [Migration] = [
        Migration(1, "v1-courses-records-search", PackageResources.v01_courses_records_search_sql),
        Migration(
            2, "v2-path-segments", PackageResources.v02_path_segments_sql,
            afterwards: PathSegmentsMigration.rebuildPaths),
        Migration(3, "v3-search-gin", PackageResources.v03_search_gin_sql),
        Migration(
            4, "v4-path-pieces", PackageResources.v04_path_pieces_sql,
            afterwards: { try await PathPiecesMigration.fillPieces($0, boxes: false) }),
        Migration(5, "v5-search-pages", PackageResources.v05_search_pages_sql),
        Migration(6, "v6-nearby-rings", PackageResources.v06_nearby_rings_sql),
        Migration(7, "v7-lighter-upkeep", PackageResources.v07_lighter_upkeep_sql),
        Migration(8, "v8-search-orders", PackageResources.v08_search_orders_sql),
        Migration(
            9, "v9-piece-boxes", PackageResources.v09_piece_boxes_sql,
            afterwards: { try await PathPiecesMigration.fillPieces($0, boxes: true) }),
        Migration(
            10, "v10-search-initials", PackageResources.v10_search_initials_sql,
            afterwards: SearchInitialsMigration.fillInitials, compacted: ["course_search"]),
        Migration(11, "v11-search-continued", PackageResources.v11_search_continued_sql),
        Migration(
            12, "v12-search-both-fields", PackageResources.v12_search_both_fields_sql, compacted: ["course_search"]),
        Migration(13, "v13-planned-reads", PackageResources.v13_planned_reads_sql),
        Migration(14, "v14-covered-walks", PackageResources.v14_covered_walks_sql),
        Migration(
            15, "v15-derived-checks", PackageResources.v15_derived_checks_sql,
            afterwards: DerivedChecksMigration.checkExistingRows),
        Migration(16, "v16-readable-estimates", PackageResources.v16_readable_estimates_sql),
        Migration(17, "v17-deleted-courses", PackageResources.v17_deleted_courses_sql),
        Migration(18, "v18-runners", PackageResources.v18_runners_sql),
        Migration(19, "v19-course-starts", PackageResources.v19_course_starts_sql),
        Migration(20, "v20-runner-roles-raced", PackageResources.v20_runner_roles_raced_sql),
    ]

    /// The group role every runner's login role belongs to (``PostgresAdministration``): the
    /// migrations make their grants to it.
    static let runnerGroup = "runnect_runner"

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
