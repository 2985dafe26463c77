import PostgresNIO

/// Version 15's check of the rows already there (`v15-derived-checks.sql` adds its constraints
/// `NOT VALID` and its triggers): each check's failing rows looked for, named if any (nothing is
/// applied), and each constraint validated. The checks are written out as version 15 shipped
/// them. Pinned by its checksum (`PostgresMigrationChecksumTests`): never edit, add a version.
enum DerivedChecksMigration {
    /// One check of version 15: a check constraint, or a test its triggers run (`isTrigger`).
    struct Check: Sendable {
        var table: String
        var name: String
        var expression: String
        var isTrigger: Bool
    }

    /// Version 15's checks, in the order they are added, each a test of a row's own columns.
    static let checks: [Check] = [
        Check(
            table: "course", name: "course_source_format_known",
            expression: "source_format IN ('gpx-1.0', 'gpx-1.1', 'gpx', 'points', 'points-json', 'geojson', "
                + "'tcx', 'fit')",
            isTrigger: false),
        Check(
            table: "course", name: "course_content_hash_sha256", expression: "content_hash ~ '^[0-9a-f]{64}$'",
            isTrigger: false),
        Check(
            table: "course", name: "course_stats_valid",
            expression: "runnect_stats_valid(stats, distance_m, point_count, NULL)", isTrigger: true),
        Check(
            table: "record", name: "record_source_format_known",
            expression: "source_format IN ('gpx-1.0', 'gpx-1.1', 'gpx', 'points', 'points-json', 'geojson', "
                + "'tcx', 'fit')",
            isTrigger: false),
        Check(
            table: "record", name: "record_content_hash_sha256", expression: "content_hash ~ '^[0-9a-f]{64}$'",
            isTrigger: false),
        Check(
            table: "record", name: "record_stats_valid",
            expression: "runnect_stats_valid(stats, distance_m, point_count, course_time_s)", isTrigger: true),
        Check(
            table: "course", name: "course_figures_in_range",
            expression: """
                distance_m >= 0 AND distance_m <= 1e12 AND point_count >= 0
                AND (path_m IS NULL OR (path_m >= 0 AND path_m <= 1e12))
                AND (start_lat IS NULL OR (start_lat BETWEEN -90 AND 90 AND start_lon BETWEEN -180 AND 180
                     AND finish_lat BETWEEN -90 AND 90 AND finish_lon BETWEEN -180 AND 180))
                """,
            isTrigger: false),
        Check(
            table: "course", name: "course_path_agrees",
            expression: """
                runnect_path_agrees(path, distance_m, point_count, start_lat, start_lon,
                                    finish_lat, finish_lon, path_m)
                """,
            isTrigger: true),
        Check(
            table: "record", name: "record_figures_in_range",
            expression: """
                distance_m >= 0 AND distance_m <= 1e12 AND point_count >= 0
                AND course_time_s >= 0 AND course_time_s <= 1e12
                AND course_distance_m >= 0 AND course_distance_m <= 1e12
                AND match_coverage >= 0 AND match_coverage <= 1
                AND (device_timer_time_s IS NULL OR (device_timer_time_s >= 0 AND device_timer_time_s <= 1e12))
                """,
            isTrigger: false),
    ]

    /// Validates version 15's constraints once no existing row fails them.
    ///
    /// - Throws: ``PostgresAdministrationError/rowsFailChecks(table:constraint:ids:)`` for the
    ///   first check some rows fail, naming up to 10 of them; the migration's transaction then
    ///   rolls back, and `db init` can run again once they are mended or deleted.
    @Sendable static func checkExistingRows(_ session: PostgresSession) async throws {
        for check in checks {
            // Table and constraint names are this file's constants, never user text.
            let ids = try await session.query(
                PostgresQuery(
                    unsafeSQL:
                        "SELECT id FROM \(check.table) WHERE (\(check.expression)) IS NOT TRUE ORDER BY id LIMIT 10")
            ).map { try $0.decode(Int64.self) }
            guard ids.isEmpty else {
                throw PostgresAdministrationError.rowsFailChecks(table: check.table, constraint: check.name, ids: ids)
            }
            if !check.isTrigger {
                try await session.execute(["ALTER TABLE \(check.table) VALIDATE CONSTRAINT \(check.name)"])
            }
        }
    }
}
