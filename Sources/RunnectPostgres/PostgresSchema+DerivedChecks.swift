import PostgresNIO
import RunnectStore

extension PostgresSchema {
    /// Version 15: the database refuses the derived values no store writes, as check constraints
    /// on `course` and `record`; a search entry takes its creation time from its course.
    ///
    /// Why: on PostgreSQL a runner has SQL and column grants to insert a course's `stats`,
    /// `distance_m`, `path`, `point_count`, … (the store is the runner's own client). A shared
    /// course with `stats = '{}'` or `distance_m = 'Infinity'` made every other runner's
    /// `list --shared`, `show`, `export` and `index` fail, and a hand-made record could claim any
    /// course time. Each constraint is what the store's own rows satisfy (every course and record
    /// of the test corpus imported through the store, checked):
    ///
    /// - `source_format` is one of RunnectKit's `ActivityFormat` raw values; `content_hash` is 64
    ///   lowercase hex digits (a SHA-256, as the store writes it).
    /// - Figures are finite and in range: distances from 0 to 10⁹ km, times from 0 to 10¹² s,
    ///   coordinates within ±90/±180, a match's coverage from 0 to 1.
    /// - `stats` decodes as `StoredStats` and agrees with its row (``statsValidFunction``): the
    ///   same distance (±0.5 mm, its JSON resolution) and point count.
    /// - A course's `distance_m` is the length of its `path` (`ST_Length`, within 1 m), no path
    ///   means no distance and no ends; the path has no more points than the course (one more a
    ///   segment: a one-point segment is stored as a line from it to itself); the start and finish
    ///   are the path's ends and `path_m` its length with the segments joined (within 1 m).
    /// - A record's course time is within its run's elapsed time (a record always has one).
    ///
    /// A database migrated from an earlier version keeps its rows: the NaN ends earlier stores
    /// wrote are mended (``mendedEndsStatement``), the constraints are added
    /// `NOT VALID` and then validated, after ``checkExistingRows(_:)`` has looked for rows that
    /// would fail; it names them and stops the migration (nothing is applied) rather than let
    /// PostgreSQL's message say only that some row fails.
    ///
    /// The checks of `stats` and of the path run in `BEFORE INSERT OR UPDATE OF` their columns
    /// triggers (``checkTriggerStatements``), not as check constraints, which PostgreSQL runs on
    /// every update of the row: a scrap or a record updates its course's counter, and the path's
    /// check took 18 ms of a 7,264-point course's counter update (0.4 ms without). Their errors
    /// read as a check constraint's (SQLSTATE 23514, `violates check constraint "…"`).
    static let derivedCheckStatements: [String] =
        derivedCheckFunctions + [mendedEndsStatement]
        + derivedChecks.filter { !$0.isTrigger }.map { check in
            "ALTER TABLE \(check.table) ADD CONSTRAINT \(check.name) CHECK (\(check.expression)) NOT VALID"
        } + checkTriggerStatements + [searchEntryCreatedStatement]

    /// The triggers running the costly checks on a row of `course` or `record` when it is
    /// inserted or one of the columns they read changes.
    static let checkTriggerStatements: [String] = ["course", "record"].flatMap { table in
        let checks = derivedChecks.filter { $0.table == table && $0.isTrigger }
        let tests = checks.map { check in
            """
                IF (\(check.expression.replacingOccurrences(of: "$row.", with: "NEW."))) IS NOT TRUE THEN
                    RAISE EXCEPTION 'new row for relation "\(table)" violates check constraint "\(check.name)"'
                        USING ERRCODE = 'check_violation', TABLE = '\(table)', CONSTRAINT = '\(check.name)';
                END IF;
            """
        }.joined(separator: "\n")
        let columns = Set(checks.flatMap(\.columns)).sorted().joined(separator: ", ")
        return [
            """
            CREATE FUNCTION runnect_\(table)_checked() RETURNS trigger LANGUAGE plpgsql
            SET search_path = public, pg_temp AS $$
            BEGIN
            \(tests)
                RETURN NEW;
            END $$
            """,
            """
            CREATE TRIGGER \(table)_checked BEFORE INSERT OR UPDATE OF \(columns) ON \(table)
                FOR EACH ROW EXECUTE FUNCTION runnect_\(table)_checked()
            """,
            "REVOKE ALL ON FUNCTION runnect_\(table)_checked() FROM PUBLIC",
        ]
    }

    /// Validates version 15's constraints (added `NOT VALID`) once no existing row fails them.
    ///
    /// - Throws: ``PostgresAdministrationError/rowsFailChecks(table:constraint:ids:)`` for the
    ///   first constraint some rows fail, naming up to 10 of them; the migration's transaction
    ///   then rolls back, and `db init` can run again once they are mended or deleted.
    @Sendable static func checkExistingRows(_ session: PostgresSession) async throws {
        for check in derivedChecks {
            // Table and constraint names are this file's constants, never user text.
            let expression = check.expression.replacingOccurrences(of: "$row.", with: "")
            let ids = try await session.query(
                PostgresQuery(
                    unsafeSQL: "SELECT id FROM \(check.table) WHERE (\(expression)) IS NOT TRUE ORDER BY id LIMIT 10")
            ).map { try $0.decode(Int64.self) }
            guard ids.isEmpty else {
                throw PostgresAdministrationError.rowsFailChecks(table: check.table, constraint: check.name, ids: ids)
            }
            if !check.isTrigger {
                try await session.execute(["ALTER TABLE \(check.table) VALIDATE CONSTRAINT \(check.name)"])
            }
        }
    }

    /// One check of version 15: a check constraint, or a test of a trigger
    /// (``checkTriggerStatements``) whose expression names the row's columns as `$row.column`.
    struct DerivedCheck: Sendable {
        var table: String
        var name: String
        var expression: String
        /// For a trigger's test: the columns it reads (an update of another leaves it be).
        var columns: [String] = []

        var isTrigger: Bool { !columns.isEmpty }
    }

    /// The formats the store writes: RunnectKit's `ActivityFormat` raw values.
    static let knownSourceFormats = ["gpx-1.0", "gpx-1.1", "gpx", "points", "points-json", "geojson", "tcx", "fit"]

    /// Version 15's constraints, in the order they are added.
    static let derivedChecks: [DerivedCheck] = {
        let formats = knownSourceFormats.map { "'\($0)'" }.joined(separator: ", ")
        var checks: [DerivedCheck] = []
        for table in ["course", "record"] {
            checks += [
                DerivedCheck(
                    table: table, name: "\(table)_source_format_known", expression: "source_format IN (\(formats))"),
                DerivedCheck(
                    table: table, name: "\(table)_content_hash_sha256", expression: "content_hash ~ '^[0-9a-f]{64}$'"),
                DerivedCheck(
                    table: table, name: "\(table)_stats_valid",
                    expression: "runnect_stats_valid($row.stats, $row.distance_m, $row.point_count, "
                        + (table == "record" ? "$row.course_time_s)" : "NULL)"),
                    columns: ["stats", "distance_m", "point_count"] + (table == "record" ? ["course_time_s"] : [])),
            ]
        }
        checks += [
            DerivedCheck(
                table: "course", name: "course_figures_in_range",
                expression: """
                    distance_m >= 0 AND distance_m <= 1e12 AND point_count >= 0
                    AND (path_m IS NULL OR (path_m >= 0 AND path_m <= 1e12))
                    AND (start_lat IS NULL OR (start_lat BETWEEN -90 AND 90 AND start_lon BETWEEN -180 AND 180
                         AND finish_lat BETWEEN -90 AND 90 AND finish_lon BETWEEN -180 AND 180))
                    """),
            DerivedCheck(
                table: "course", name: "course_path_agrees",
                expression: """
                    runnect_path_agrees($row.path, $row.distance_m, $row.point_count, $row.start_lat, $row.start_lon,
                                        $row.finish_lat, $row.finish_lon, $row.path_m)
                    """,
                columns: [
                    "path", "distance_m", "point_count", "start_lat", "start_lon", "finish_lat", "finish_lon", "path_m",
                ]),
            DerivedCheck(
                table: "record", name: "record_figures_in_range",
                expression: """
                    distance_m >= 0 AND distance_m <= 1e12 AND point_count >= 0
                    AND course_time_s >= 0 AND course_time_s <= 1e12
                    AND course_distance_m >= 0 AND course_distance_m <= 1e12
                    AND match_coverage >= 0 AND match_coverage <= 1
                    AND (device_timer_time_s IS NULL OR (device_timer_time_s >= 0 AND device_timer_time_s <= 1e12))
                    """),
        ]
        return checks
    }()

    /// Version 15's functions, each `IMMUTABLE` (a check constraint's) and never raising on any
    /// input a store's column can hold: a malformed value is `false`, not an error.
    static let derivedCheckFunctions: [String] = [
        // A JSON number from `low` to `high`; `null` or a missing key when `nullable`.
        """
        CREATE FUNCTION runnect_json_number(value jsonb, low numeric, high numeric, nullable boolean)
        RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT CASE jsonb_typeof(value)
                WHEN 'number' THEN value::numeric BETWEEN low AND high
                WHEN 'null' THEN nullable
                ELSE value IS NULL AND nullable END
        $$
        """,
        // A JSON integer written with digits only (as Swift writes an `Int`: `json`, not `jsonb`,
        // keeps the text) from `low` to `high`.
        """
        CREATE FUNCTION runnect_json_integer(value json, low bigint, high bigint)
        RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT CASE WHEN json_typeof(value) = 'number' AND value::text ~ '^-?[0-9]{1,18}$'
                THEN value::text::bigint BETWEEN low AND high ELSE false END
        $$
        """,
        // An ISO 8601 UTC time as `RunnerFormat.timestamp` writes it, `null` or a missing key.
        """
        CREATE FUNCTION runnect_json_timestamp(value jsonb)
        RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT CASE jsonb_typeof(value)
                WHEN 'string' THEN (value #>> '{}')
                    ~ '^-?[0-9]{4,}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,3})?Z$'
                WHEN 'null' THEN true
                ELSE value IS NULL END
        $$
        """,
        statsValidFunction,
        pathAgreesFunction,
    ]

    /// `runnect_stats_valid(stats, distance_m, point_count, course_time_s)`: whether `stats`
    /// decodes as `StoredStats` version 1 (its keys, their types, finite figures in range), holds
    /// together and agrees with its row.
    ///
    /// - It holds together: moving time within elapsed time, and each pace at least its time over
    ///   the whole distance (a pace divides by the distance between the first and last timed
    ///   points, which is at most the whole), at the figures' JSON resolution (distances ±0.5 mm,
    ///   times ±0.5 ms, paces ±0.005 s/km).
    /// - It agrees with its row: the same distance (±0.5 mm) and point count; a record's course
    ///   time (`course_time_s`, null for a course) within its elapsed time, which a record has.
    ///
    /// The JSON is parsed once as `jsonb` (and twice more as text, for the two integers): every
    /// `->` of `json` parses the whole text again, which made one call 0.3 ms.
    static let statsValidFunction = """
        CREATE FUNCTION runnect_stats_valid(
            stats json, distance_m double precision, point_count integer, course_time_s double precision)
        RETURNS boolean LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path = public, pg_temp AS $$
        DECLARE
            s jsonb := stats::jsonb;
            b jsonb;
            distance double precision;
            elapsed double precision;
            moving double precision;
            pace double precision;
        BEGIN
            IF s IS NULL OR jsonb_typeof(s) <> 'object' THEN RETURN false; END IF;
            b := s -> 'bounds';
            IF NOT (
                (s -> 'v' IS NULL OR runnect_json_integer(stats -> 'v', 1, 1))
                AND runnect_json_number(s -> 'distance_m', 0, 1e12, false)
                AND runnect_json_number(s -> 'distance_3d_m', 0, 1e12, true)
                AND runnect_json_number(s -> 'elapsed_time_s', 0, 1e12, true)
                AND runnect_json_number(s -> 'moving_time_s', 0, 1e12, true)
                AND runnect_json_number(s -> 'avg_pace_s_per_km', 0, 1e15, true)
                AND runnect_json_number(s -> 'moving_pace_s_per_km', 0, 1e15, true)
                AND runnect_json_number(s -> 'max_speed_m_s', 0, 1e12, true)
                AND runnect_json_number(s -> 'elevation_gain_m', 0, 1e12, true)
                AND runnect_json_number(s -> 'elevation_loss_m', 0, 1e12, true)
                AND runnect_json_number(s -> 'min_elevation_m', -1e12, 1e12, true)
                AND runnect_json_number(s -> 'max_elevation_m', -1e12, 1e12, true)
                AND runnect_json_number(s -> 'avg_heart_rate_bpm', 0, 1e12, true)
                AND runnect_json_number(s -> 'max_heart_rate_bpm', 0, 1e12, true)
                AND runnect_json_number(s -> 'avg_cadence_spm', 0, 1e12, true)
                AND runnect_json_number(s -> 'max_cadence_spm', 0, 1e12, true)
                AND runnect_json_timestamp(s -> 'start_time')
                AND runnect_json_timestamp(s -> 'end_time')
            ) THEN
                RETURN false;
            END IF;
            IF jsonb_typeof(b) = 'object' THEN
                IF NOT (runnect_json_number(b -> 'min_lat', -90, 90, false)
                        AND runnect_json_number(b -> 'max_lat', -90, 90, false)
                        AND runnect_json_number(b -> 'min_lon', -180, 180, false)
                        AND runnect_json_number(b -> 'max_lon', -180, 180, false)) THEN
                    RETURN false;
                END IF;
                IF (b ->> 'min_lat')::numeric > (b ->> 'max_lat')::numeric THEN RETURN false; END IF;
            ELSIF b IS NOT NULL AND jsonb_typeof(b) <> 'null' THEN
                RETURN false;
            END IF;
            IF NOT (runnect_json_integer(stats -> 'points', 0, 2147483647)
                    AND runnect_json_integer(stats -> 'segments', 0, 2147483647)) THEN
                RETURN false;
            END IF;
            distance := (s ->> 'distance_m')::double precision;
            elapsed := (s ->> 'elapsed_time_s')::double precision;
            moving := (s ->> 'moving_time_s')::double precision;
            IF moving IS NOT NULL AND (elapsed IS NULL OR moving > elapsed + 0.001) THEN RETURN false; END IF;
            pace := (s ->> 'avg_pace_s_per_km')::double precision;
            IF pace IS NOT NULL AND (elapsed IS NULL OR elapsed <= 0
                    OR (pace + 0.005) * (distance + 0.0005) / 1000 * (1 + 1e-9) < elapsed - 0.0005) THEN
                RETURN false;
            END IF;
            pace := (s ->> 'moving_pace_s_per_km')::double precision;
            IF pace IS NOT NULL AND (moving IS NULL OR moving <= 0
                    OR (pace + 0.005) * (distance + 0.0005) / 1000 * (1 + 1e-9) < moving - 0.0005) THEN
                RETURN false;
            END IF;
            -- The row: the same distance and points; a record's course time within its elapsed time
            -- (the elapsed time is at JSON resolution, a millisecond; the course time is not).
            IF NOT (abs(distance - runnect_stats_valid.distance_m) <= 0.0005
                    AND (s ->> 'points')::numeric = runnect_stats_valid.point_count) THEN
                RETURN false;
            END IF;
            RETURN course_time_s IS NULL OR (elapsed IS NOT NULL AND course_time_s <= elapsed + 0.0005);
        END $$
        """

    /// `runnect_path_agrees(…)`: whether a course's path agrees with its distance, point count,
    /// ends and joined length (see ``derivedCheckStatements``). Lengths on the WGS84 spheroid,
    /// as RunnectKit measures them; the joined length is the path's plus the legs between its
    /// lines.
    static let pathAgreesFunction = """
        CREATE FUNCTION runnect_path_agrees(
            path geography, distance_m double precision, point_count integer, start_lat double precision,
            start_lon double precision, finish_lat double precision, finish_lon double precision,
            path_m double precision)
        RETURNS boolean LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SET search_path = public, pg_temp AS $$
        DECLARE
            g geometry;
            lines integer;
            first geometry;
            last geometry;
            length double precision;
            joined double precision;
        BEGIN
            IF path IS NULL THEN
                RETURN distance_m = 0 AND start_lat IS NULL AND start_lon IS NULL AND finish_lat IS NULL
                    AND finish_lon IS NULL AND path_m IS NULL;
            END IF;
            IF start_lat IS NULL OR start_lon IS NULL OR finish_lat IS NULL OR finish_lon IS NULL OR path_m IS NULL
            THEN
                RETURN false;
            END IF;
            g := path::geometry;
            lines := ST_NumGeometries(g);
            IF ST_IsEmpty(g) OR ST_NPoints(g) > point_count::bigint + lines THEN RETURN false; END IF;
            length := ST_Length(path);
            IF NOT abs(length - distance_m) <= 1 THEN RETURN false; END IF;
            first := ST_StartPoint(ST_GeometryN(g, 1));
            last := ST_EndPoint(ST_GeometryN(g, lines));
            IF NOT (abs(ST_Y(first) - start_lat) <= 1e-9 AND abs(ST_X(first) - start_lon) <= 1e-9
                    AND abs(ST_Y(last) - finish_lat) <= 1e-9 AND abs(ST_X(last) - finish_lon) <= 1e-9) THEN
                RETURN false;
            END IF;
            joined := length;
            FOR i IN 2..lines LOOP
                joined := joined + ST_Length(ST_MakeLine(ST_EndPoint(ST_GeometryN(g, i - 1)),
                                                         ST_StartPoint(ST_GeometryN(g, i)))::geography);
            END LOOP;
            RETURN abs(joined - path_m) <= 1;
        END $$
        """

    /// Mends the one thing earlier stores wrote that the constraints refuse: a course whose first
    /// (or last) point has no position, as a FIT file's first record often has, was stored with a
    /// start (or finish) of NaN; the ends become its path's, as the store now writes them
    /// (`CourseBounds`).
    static let mendedEndsStatement = """
        UPDATE course SET start_lat = ST_Y(e.first), start_lon = ST_X(e.first),
                          finish_lat = ST_Y(e.last), finish_lon = ST_X(e.last)
        FROM (SELECT id, ST_StartPoint(ST_GeometryN(path::geometry, 1)) AS first,
                     ST_EndPoint(ST_GeometryN(path::geometry, ST_NumGeometries(path::geometry))) AS last
              FROM course
              WHERE path IS NOT NULL AND (start_lat = 'NaN' OR start_lon = 'NaN' OR finish_lat = 'NaN'
                                          OR finish_lon = 'NaN')) e
        WHERE course.id = e.id
        """

    /// A search entry's creation time is its course's, whatever the insert says (it orders
    /// every newest-first list and search).
    static let searchEntryCreatedStatement = """
        CREATE OR REPLACE FUNCTION runnect_search_entry_added() RETURNS trigger \(definer) AS $$
        BEGIN
            SELECT owner, is_uploaded, scrap_count, distance_m, round(extract(epoch FROM created_at) * 1000)::bigint
            INTO NEW.owner, NEW.is_uploaded, NEW.scrap_count, NEW.distance_m, NEW.created_ms
            FROM course WHERE id = NEW.course_id;
            RETURN NEW;
        END $$
        """
}
