import Foundation
import RunnectTestSupport
import Testing

/// A runner with `psql` writes, by hand, every column of every table the store derives, with
/// values no store writes: the database refuses each (schema version 15's checks), or corrects it
/// (a search entry's creation time). Each hostile row is a copy of a row the store wrote (a run
/// imported with `runnect import`) with one thing changed, and the copy with only its content
/// hash changed is accepted: what is refused is the value.
@Suite(.postgres) struct DerivedColumnsTests {
    let cluster: PostgresCluster
    let database: String
    let runner: String

    init() throws {
        cluster = try PostgresCluster.get()
        database = try cluster.makeDatabase(prefix: "derived")
        runner = PostgresCluster.uniqueRoleName("hostile")
    }

    /// Runs `statement` as the runner.
    func sql(_ statement: String) throws -> PostgresCluster.PsqlResult {
        try cluster.psql(statement, database: database, role: runner, password: "\(runner) pw")
    }

    /// Initialises the database (`runnect db init`) and adds these runners (`db add-user`, password
    /// `"NAME pw"`); their URLs, in order.
    func initialised(runners: [String]) throws -> [String] {
        let admin = cluster.url(database: database)
        #expect(try RunnectProcess.run(["db", "init", "--db", admin]).status == 0)
        return try runners.map { role in
            let added = try RunnectProcess.run(
                ["db", "add-user", role, "--password-stdin", "--db", admin], stdin: "\(role) pw\n")
            #expect(added.status == 0, "\(added.stderr)")
            return cluster.url(database: database, user: role, password: "\(role) pw")
        }
    }

    /// A fresh content hash, so that the unique key is never what refuses a copy.
    static let freshHash = "encode(sha256(gen_random_uuid()::text::bytea), 'hex')"

    static let courseColumns = [
        "title", "source_format", "content_hash", "distance_m", "point_count", "stats", "geometry", "path",
        "start_lat", "start_lon", "finish_lat", "finish_lon", "path_m",
    ]
    static let recordColumns = [
        "course_id", "title", "source_format", "content_hash", "start_time", "distance_m", "point_count",
        "device_timer_time_s", "course_time_s", "course_distance_m", "match_coverage", "stats", "geometry",
    ]

    /// A copy of `table`'s row `id` with `changes` (column: SQL expression over the original row
    /// `o`) and a fresh hash unless `changes` gives one.
    func copy(_ table: String, id: String, _ changes: [String: String]) -> String {
        let columns = table == "course" ? Self.courseColumns : Self.recordColumns
        let values = columns.map { column in
            changes[column] ?? (column == "content_hash" ? Self.freshHash : "o.\(column)")
        }
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) "
            + "FROM \(table) o WHERE o.id = \(id)"
    }

    /// Each copy of `table`'s row `id` with one hostile change is refused by a check.
    func expectRefused(_ table: String, copying id: String, _ cases: [(String, [String: String])]) throws {
        for (name, changes) in cases {
            let result = try sql(copy(table, id: id, changes))
            #expect(result.status != 0, "\(table) \(name) was accepted")
            #expect(result.stderr.contains("violates check constraint"), "\(table) \(name): \(result.stderr)")
        }
    }

    /// `stats` with `key` set to the JSON `value` (`value` a SQL expression giving jsonb text).
    static func stats(_ key: String, _ value: String) -> String {
        "jsonb_set(o.stats::jsonb, '{\(key)}', \(value)::jsonb)::json"
    }

    @Test func everyDerivedColumnRefusesWhatNoStoreWrites() throws {
        let runnerURL = try initialised(runners: [runner])[0]
        // A timed run (a course and a record of it) and a course of two segments, as the store
        // writes them.
        let files = ["banpo_hangang_night_run.gpx", "namsan_loop_two_segments.gpx"].map {
            PackageFolder.root.appendingPathComponent("SampleTracks/\($0)").path
        }
        let imported = try RunnectProcess.run(["import"] + files + ["--db", runnerURL])
        #expect(imported.status == 0, "\(imported.stderr)")
        let courseID = try #require(try sql("SELECT min(id) FROM course").stdout.trimmed.nonEmpty)
        let twoSegments = try #require(
            try sql("SELECT id FROM course WHERE ST_NumGeometries(path::geometry) = 2").stdout.trimmed.nonEmpty)
        let recordID = try #require(try sql("SELECT min(id) FROM record").stdout.trimmed.nonEmpty)

        // The copies the store could have written are accepted.
        for id in [courseID, twoSegments] {
            let accepted = try sql(copy("course", id: id, [:]))
            #expect(accepted.status == 0, "\(accepted.stderr)")
        }
        let acceptedRecord = try sql(copy("record", id: recordID, [:]))
        #expect(acceptedRecord.status == 0, "\(acceptedRecord.stderr)")
        let counts = "SELECT (SELECT count(*) FROM course) || ' ' || (SELECT count(*) FROM record)"
        let before = try sql(counts).stdout.trimmed

        let hostileCourses: [(String, [String: String])] =
            [
                ("source_format: escape codes", ["source_format": #"E'\x1b[2Jgpx'"#]),
                ("source_format: unknown", ["source_format": "'kml'"]),
                ("content_hash: short", ["content_hash": "'abc'"]),
                ("content_hash: uppercase", ["content_hash": "upper(\(Self.freshHash))"]),
                ("content_hash: escape", ["content_hash": #"E'\x1b]0;pwned\x07' || repeat('a', 56)"#]),
                ("distance_m: NaN", ["distance_m": "'NaN'"]),
                ("distance_m: Infinity", ["distance_m": "'Infinity'"]),
                ("distance_m: -1", ["distance_m": "-1"]),
                ("distance_m: 1e308", ["distance_m": "1e308"]),
                ("distance_m: not the stats'", ["distance_m": "o.distance_m + 5"]),
                (
                    "distance_m and stats: not the path's length",
                    [
                        "distance_m": "o.distance_m + 5",
                        "stats": Self.stats("distance_m", "to_jsonb(o.distance_m + 5)"),
                    ]
                ),
                ("point_count: -1", ["point_count": "-1"]),
                ("point_count: not the stats'", ["point_count": "o.point_count + 1"]),
                (
                    "point_count and stats: fewer than the path's points",
                    ["point_count": "1", "stats": Self.stats("points", "'1'")]
                ),
                ("path: none, with a distance", ["path": "NULL"]),
                ("path: another", ["path": "'SRID=4326;MULTILINESTRING((127 37.5, 127.001 37.5))'::geography"]),
                ("start_lat: NaN", ["start_lat": "'NaN'"]),
                ("start_lat: 91", ["start_lat": "91"]),
                ("start_lat: not the path's", ["start_lat": "o.start_lat + 0.01"]),
                ("start_lon: Infinity", ["start_lon": "'Infinity'"]),
                ("finish_lat: NULL", ["finish_lat": "NULL"]),
                ("finish_lon: 181", ["finish_lon": "181"]),
                ("finish_lon: not the path's", ["finish_lon": "o.finish_lon - 0.01"]),
                ("path_m: Infinity", ["path_m": "'Infinity'"]),
                ("path_m: -1", ["path_m": "-1"]),
                ("path_m: not the joined length", ["path_m": "o.path_m + 10"]),
            ] + Self.hostileStats
        try expectRefused("course", copying: courseID, hostileCourses)

        let hostileRecords: [(String, [String: String])] =
            [
                ("source_format: escape codes", ["source_format": #"E'fit\x1b[31m'"#]),
                ("content_hash: 63 digits", ["content_hash": "left(\(Self.freshHash), 63)"]),
                ("distance_m: NaN", ["distance_m": "'NaN'"]),
                ("distance_m: -Infinity", ["distance_m": "'-Infinity'"]),
                ("distance_m: 1e308", ["distance_m": "1e308"]),
                ("distance_m: not the stats'", ["distance_m": "o.distance_m * 2"]),
                ("point_count: -1", ["point_count": "-1"]),
                ("point_count: not the stats'", ["point_count": "o.point_count + 1"]),
                ("course_time_s: NaN", ["course_time_s": "'NaN'"]),
                ("course_time_s: -1", ["course_time_s": "-1"]),
                ("course_time_s: Infinity", ["course_time_s": "'Infinity'"]),
                (
                    "course_time_s: above the elapsed time",
                    ["course_time_s": "(o.stats ->> 'elapsed_time_s')::float8 + 1"]
                ),
                (
                    "course time with no elapsed time",
                    ["course_time_s": "1", "stats": "(o.stats::jsonb - 'elapsed_time_s')::json"]
                ),
                ("course_distance_m: NaN", ["course_distance_m": "'NaN'"]),
                ("course_distance_m: -1", ["course_distance_m": "-1"]),
                ("course_distance_m: 1e308", ["course_distance_m": "1e308"]),
                ("match_coverage: 1.5", ["match_coverage": "1.5"]),
                ("match_coverage: -0.1", ["match_coverage": "-0.1"]),
                ("match_coverage: NaN", ["match_coverage": "'NaN'"]),
                ("device_timer_time_s: NaN", ["device_timer_time_s": "'NaN'"]),
                ("device_timer_time_s: -1", ["device_timer_time_s": "-1"]),
                ("device_timer_time_s: Infinity", ["device_timer_time_s": "'Infinity'"]),
            ] + Self.hostileStats
        try expectRefused("record", copying: recordID, hostileRecords)
        #expect(try sql(counts).stdout.trimmed == before, "a refused row was written")

        // Updates: the derived columns are not the runner's to change at all.
        for column in ["stats", "distance_m", "point_count", "path", "start_lat", "path_m", "source_format"] {
            let result = try sql("UPDATE course SET \(column) = NULL WHERE id = \(courseID)")
            #expect(result.stderr.contains("permission denied"), "course.\(column): \(result.stderr)")
        }
        for column in ["stats", "course_time_s", "course_distance_m", "match_coverage", "distance_m"] {
            let result = try sql("UPDATE record SET \(column) = NULL WHERE id = \(recordID)")
            #expect(result.stderr.contains("permission denied"), "record.\(column): \(result.stderr)")
        }

        // A search entry's creation time is its course's, whatever the insert says.
        let copied = try #require(try sql("SELECT max(id) FROM course").stdout.trimmed.nonEmpty)
        let entry = try sql(
            """
            INSERT INTO course_search (course_id, created_ms, title, description, departure, tokens, title_initials,
                                       description_initials, departure_initials)
            VALUES (\(copied), 9000000000000000, 'x', '', '', ARRAY['tx'], 'x', '', '')
            """)
        #expect(entry.status == 0, "\(entry.stderr)")
        #expect(
            try sql(
                """
                SELECT s.created_ms = round(extract(epoch FROM c.created_at) * 1000)
                FROM course_search s JOIN course c ON c.id = s.course_id WHERE s.course_id = \(copied)
                """
            ).stdout.trimmed == "t")
    }

    /// A shared course holding every hostile value the database still lets a runner write (text
    /// with escape codes, a path's bytes that are no activity) leaves the others served: another
    /// runner's `list --shared`, `--json`, `show`, `export` and `index` work, the damaged course
    /// left out of the index with a warning naming it and refused alone by `export`, and no
    /// control character reaches the terminal.
    @Test func aHostileSharedCourseLeavesOthersServed() throws {
        let urls = try initialised(runners: [runner, PostgresCluster.uniqueRoleName("reader")])
        let (runnerURL, readerURL) = (urls[0], urls[1])
        let files = ["olympic_park_route.gpx", "namsan_loop_two_segments.gpx"].map {
            PackageFolder.root.appendingPathComponent("SampleTracks/\($0)").path
        }
        #expect(try RunnectProcess.run(["import"] + files + ["--db", runnerURL]).status == 0)
        let ids = try sql("SELECT string_agg(id::text, ' ' ORDER BY id) FROM course").stdout.trimmed
            .split(separator: " ").map(String.init)
        try #require(ids.count == 2)
        for id in ids {
            let shared = try RunnectProcess.run(
                ["upload", id, "--title", "공유 \(id)", "--description", "shared", "--db", runnerURL])
            #expect(shared.status == 0, "\(shared.stderr)")
        }
        // By hand: a copy of a course the store wrote, with escape codes in every text a runner may
        // write and bytes that are no activity (no check can read them), then shared.
        let hostile = try sql(
            #"""
            INSERT INTO course (title, description, departure_region, departure_city, departure_town, departure_name,
                source_format, content_hash, distance_m, point_count, stats, geometry, path, start_lat, start_lon,
                finish_lat, finish_lon, path_m)
            SELECT E'\x1b[2J\x1b]0;pwned\x07 hostile', E'line\n#99 forged\r' || chr(155), E'\x1b[31m서울', '송파구', '잠실동',
                E'\x07bell', o.source_format, \#(Self.freshHash), o.distance_m, o.point_count, o.stats,
                '\x00deadbeef'::bytea, o.path, o.start_lat, o.start_lon, o.finish_lat, o.finish_lon, o.path_m
            FROM course o WHERE o.id = \#(ids[0]);
            UPDATE course SET is_uploaded = true, uploaded_at = now() WHERE id = (SELECT max(id) FROM course);
            """#)
        try #require(hostile.status == 0, "\(hostile.stderr)")
        let bad = try sql("SELECT max(id) FROM course").stdout.trimmed
        let good = ids[1]

        // Text goes through the control-character rule; JSON escapes C0 controls itself (and keeps
        // the text as stored, C1 controls included, for scripts).
        func noRawControls(_ text: String, json: Bool = false) -> Bool {
            !text.unicodeScalars.contains {
                $0.value < 0x20 && $0 != "\n" || !json && (0x7F...0x9F).contains($0.value)
            }
        }
        for arguments in [["list", "--shared"], ["list", "--shared", "--json"], ["show", bad], ["show", good]] {
            let result = try RunnectProcess.run(arguments + ["--db", readerURL])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(
                noRawControls(result.stdout, json: arguments.contains("--json")) && noRawControls(result.stderr),
                "\(arguments): \(result.stdout)")
        }
        let listed = try RunnectProcess.run(["list", "--shared", "--json", "--db", readerURL])
        #expect(listed.stdoutLines.count == 3)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-hostile-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let gpx = folder.appendingPathComponent("other.gpx").path
        let exported = try RunnectProcess.run(["export", "gpx", good, "-o", gpx, "--db", readerURL])
        #expect(exported.status == 0 && FileManager.default.fileExists(atPath: gpx), "\(exported.stderr)")
        let refused = try RunnectProcess.run(
            ["export", "gpx", bad, "-o", folder.appendingPathComponent("hostile.gpx").path, "--db", readerURL])
        #expect(refused.status != 0 && refused.stderrLines.count == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("course #\(bad)") && noRawControls(refused.stderr))

        let site = folder.appendingPathComponent("site").path
        let index = try RunnectProcess.run(["index", site, "--db", readerURL])
        #expect(index.status == 0, "\(index.stderr)")
        #expect(index.stderr.contains("warning: course #\(bad) cannot be read"), "\(index.stderr)")
        let listing = try String(contentsOfFile: site + "/courses.json", encoding: .utf8)
        #expect(listing.contains(#""id":\#(good)"#) && !listing.contains(#""id":\#(bad)"#), "\(listing)")
    }

    /// Every course and record the store writes from the corpus passes the checks: each file the
    /// store can read is imported (records of the runs included), none refused by a constraint;
    /// and a course whose first or last point has no position (FIT records before the first
    /// fix) starts and finishes where its path does, not at NaN.
    @Test(.sharedCorpus) func theStoresOwnRowsPass() throws {
        let runnerURL = try initialised(runners: [runner])[0]
        let folders = ["fit", "gpx", "tcx", "edge"].map { SharedCorpus.tracks.appendingPathComponent($0).path }
        let imported = try RunnectProcess.run(
            ["import"] + folders + [
                PackageFolder.root.appendingPathComponent("SampleTracks").path, "--db", runnerURL,
            ])
        #expect(!imported.stderr.contains("constraint"), "\(imported.stderr)")
        // The edge files the reader refuses (no points, bad coordinates, cut short) are the only failures.
        let failures = imported.stderr.split(separator: "\n").filter { $0.hasPrefix("runnect: error:") }
        #expect(failures.allSatisfy { $0.contains("/edge/") }, "\(failures)")
        #expect(try sql("SELECT count(*) >= 35 FROM course").stdout.trimmed == "t")
        #expect(try sql("SELECT count(*) >= 30 FROM record").stdout.trimmed == "t")
        let ends = try sql(
            """
            SELECT count(*) FROM course
            WHERE 'NaN' IN (start_lat, start_lon, finish_lat, finish_lon)
               OR start_lat <> ST_Y(ST_StartPoint(ST_GeometryN(path::geometry, 1)))
               OR finish_lon <> ST_X(ST_EndPoint(ST_GeometryN(path::geometry, ST_NumGeometries(path::geometry))))
            """)
        #expect(ends.stdout.trimmed == "0", "\(ends.stderr)")
    }

    /// Stats that would not decode as the store's (`StoredStats`), or that do not hold together.
    static let hostileStats: [(String, [String: String])] = [
        ("stats: {}", ["stats": "'{}'"]),
        ("stats: an array", ["stats": "'[]'"]),
        ("stats: points as text", ["stats": stats("points", #"'"12"'"#)]),
        ("stats: points a fraction", ["stats": stats("points", "'1.5'")]),
        ("stats: distance as text", ["stats": stats("distance_m", #"'"far"'"#)]),
        ("stats: distance 1e400", ["stats": stats("distance_m", "'1e400'")]),
        ("stats: distance missing", ["stats": "(o.stats::jsonb - 'distance_m')::json"]),
        ("stats: elapsed time as text", ["stats": stats("elapsed_time_s", #"'"long"'"#)]),
        ("stats: elapsed time negative", ["stats": stats("elapsed_time_s", "'-5'")]),
        ("stats: heart rate 1e300", ["stats": stats("max_heart_rate_bpm", "'1e300'")]),
        ("stats: a pace faster than time over distance", ["stats": stats("avg_pace_s_per_km", "'1'")]),
        ("stats: a moving pace faster than its time", ["stats": stats("moving_pace_s_per_km", "'0.5'")]),
        (
            "stats: moving time above elapsed",
            ["stats": stats("moving_time_s", "to_jsonb((o.stats ->> 'elapsed_time_s')::float8 + 60)")]
        ),
        ("stats: bounds latitude 91", ["stats": stats("bounds,max_lat", "'91'")]),
        ("stats: bounds a string", ["stats": stats("bounds", #"'"box"'"#)]),
        ("stats: start time not a time", ["stats": stats("start_time", #"'"yesterday"'"#)]),
        ("stats: start time without a zone", ["stats": stats("start_time", #"'"2024-05-01T10:00:00"'"#)]),
        ("stats: a newer version", ["stats": stats("v", "'2'")]),
    ]
}

extension String {
    /// The string, or nil when empty.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
    /// The string without surrounding white space.
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
