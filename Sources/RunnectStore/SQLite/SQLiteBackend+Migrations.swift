import Foundation
import GRDB

extension SQLiteBackend {
    /// The schema, one migration per version. Append-only: a released migration is never edited,
    /// and migrations use string names (not record types), so they keep meaning what they meant.
    /// Each one sets `user_version` to its position, the ``CourseStore/schemaVersion`` users see.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()

        migrator.registerMigration("v1-courses") { db in
            try db.create(table: "course") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("owner", .text).notNull()
                t.column("title", .text).notNull()
                t.column("description", .text)
                t.column("departure_region", .text)
                t.column("departure_city", .text)
                t.column("departure_town", .text)
                t.column("departure_detail", .text)
                t.column("departure_name", .text)
                t.column("source_format", .text).notNull()
                t.column("content_hash", .text).notNull()
                t.column("created_at", .datetime).notNull()
                t.column("is_uploaded", .boolean).notNull().defaults(to: false)
                t.column("uploaded_at", .datetime)
                // Kept by the triggers below, so that the scrap order can use an index.
                t.column("scrap_count", .integer).notNull().defaults(to: 0)
                t.column("distance_m", .double).notNull()
                t.column("point_count", .integer).notNull()
                t.column("stats", .jsonText).notNull()
                t.column("geometry", .blob).notNull()
                t.uniqueKey(["owner", "content_hash"])
            }
            // One index per list order (the row id, appended to every index entry, breaks ties).
            try db.create(index: "course_owner_created", on: "course", columns: ["owner", "created_at"])
            try db.create(index: "course_shared_created", on: "course", columns: ["is_uploaded", "created_at"])
            try db.create(
                index: "course_shared_scraps", on: "course",
                columns: ["is_uploaded", "scrap_count", "created_at"])
            try db.create(index: "course_shared_distance", on: "course", columns: ["is_uploaded", "distance_m"])

            try db.create(table: "scrap") { t in
                t.column("course_id", .integer).notNull()
                    .references("course", onDelete: .cascade)
                t.column("user", .text).notNull()
                t.column("created_at", .datetime).notNull()
                t.primaryKey(["course_id", "user"])
            }
            try db.create(index: "scrap_user", on: "scrap", columns: ["user", "course_id"])
            try db.execute(
                sql: """
                    CREATE TRIGGER scrap_added AFTER INSERT ON scrap BEGIN
                        UPDATE course SET scrap_count = scrap_count + 1 WHERE id = NEW.course_id;
                    END;
                    CREATE TRIGGER scrap_removed AFTER DELETE ON scrap BEGIN
                        UPDATE course SET scrap_count = scrap_count - 1 WHERE id = OLD.course_id;
                    END;
                    """)

            try SearchIndex.createTables(db)
            try db.execute(sql: "PRAGMA user_version = 1")
        }

        migrator.registerMigration("v2-records", migrate: migrateToRecords)
        migrator.registerMigration("v3-course-starts", migrate: migrateToCourseStarts)
        migrator.registerMigration("v4-course-pieces", migrate: migrateToCoursePieces)
        migrator.registerMigration("v5-deleted-courses", migrate: migrateToDeletedCourses)

        return migrator
    }

    /// Version 2: records of runs, each tied to one course, and an R*Tree of course bounds (with
    /// each course's start and finish) for finding the courses a run may have followed.
    private static func migrateToRecords(_ db: Database) throws {
        // Every runner's records of the course, kept by the triggers below (as scrap_count).
        try db.execute(sql: "ALTER TABLE course ADD COLUMN record_count INTEGER NOT NULL DEFAULT 0")
        try db.create(table: "record") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("owner", .text).notNull()
            // A course with records is deleted only after its records (the store asks first).
            t.column("course_id", .integer).notNull().references("course", onDelete: .restrict)
            t.column("title", .text).notNull()
            t.column("source_format", .text).notNull()
            t.column("content_hash", .text).notNull()
            t.column("created_at", .datetime).notNull()
            t.column("start_time", .datetime)
            t.column("distance_m", .double).notNull()
            t.column("point_count", .integer).notNull()
            // The watch's own timer total (FIT/TCX), when the file has one.
            t.column("device_timer_time_s", .double)
            t.column("course_time_s", .double).notNull()
            t.column("course_distance_m", .double).notNull()
            t.column("match_coverage", .double).notNull()
            t.column("stats", .jsonText).notNull()
            t.column("geometry", .blob).notNull()
            t.uniqueKey(["owner", "content_hash"])
        }
        try db.create(index: "record_owner_start", on: "record", columns: ["owner", "start_time"])
        try db.create(
            index: "record_course_owner_time", on: "record", columns: ["course_id", "owner", "course_time_s"])
        try db.execute(
            sql: """
                CREATE TRIGGER record_added AFTER INSERT ON record BEGIN
                    UPDATE course SET record_count = record_count + 1 WHERE id = NEW.course_id;
                END;
                CREATE TRIGGER record_removed AFTER DELETE ON record BEGIN
                    UPDATE course SET record_count = record_count - 1 WHERE id = OLD.course_id;
                END;
                CREATE VIRTUAL TABLE course_bounds USING rtree(
                    id, min_lat, max_lat, min_lon, max_lon, +start_lat, +start_lon, +finish_lat, +finish_lon);
                CREATE TRIGGER course_bounds_removed AFTER DELETE ON course BEGIN
                    DELETE FROM course_bounds WHERE id = OLD.id;
                END;
                """)
        // (Filled by version 3, which replaces it.)
        try db.execute(sql: "PRAGMA user_version = 2")
    }

    /// Version 3: the spatial indexes as they are now. `course_bounds` keeps each course's box
    /// alone (the ends moved out), and `course_start` indexes each course's start point (its box
    /// a point, in the R*Tree's 32-bit floats), with the exact start and finish and the path
    /// length beside it: matching a run asks for the starts in the run's
    /// box, which in a city full of long loops are a fifteenth of the boxes that meet it (see
    /// `CourseStore.candidateCourses(for:in:)`).
    private static func migrateToCourseStarts(_ db: Database) throws {
        try db.execute(
            sql: """
                DROP TRIGGER course_bounds_removed;
                DROP TABLE course_bounds;
                CREATE VIRTUAL TABLE course_bounds USING rtree(id, min_lat, max_lat, min_lon, max_lon);
                CREATE VIRTUAL TABLE course_start USING rtree(
                    id, min_lat, max_lat, min_lon, max_lon, +start_lat, +start_lon, +finish_lat, +finish_lon, +path_m);
                CREATE TRIGGER course_spatial_removed AFTER DELETE ON course BEGIN
                    DELETE FROM course_bounds WHERE id = OLD.id;
                    DELETE FROM course_start WHERE id = OLD.id;
                END;
                """)
        // The courses stored so far, from their geometry.
        let rows = try Row.fetchCursor(db, sql: "SELECT id, geometry FROM course")
        while let row = try rows.next() {
            let blob: Data = row[1]
            guard let activity = try? ActivityCodec.decode(blob), let entry = CourseBounds(activity) else { continue }
            try entry.insert(db, courseID: row[0])
        }
        try db.execute(sql: "PRAGMA user_version = 3")
    }

    /// Version 4: `course_piece`, an R*Tree of each course's path cut into pieces of a few legs
    /// (see `CoursePieces`), each with its points beside its box, for near-me search. A piece's id
    /// is its course's id times 2^24 plus its index; a course's pieces are numbered from 0
    /// without a gap, so the trigger deletes them by id until one is missing.
    private static func migrateToCoursePieces(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE course_piece USING rtree(id, min_lat, max_lat, min_lon, max_lon, +path);
                CREATE TRIGGER course_piece_removed AFTER DELETE ON course BEGIN
                    DELETE FROM course_piece WHERE id IN (
                        WITH RECURSIVE piece(n) AS (
                            SELECT 0
                            UNION ALL
                            SELECT n + 1 FROM piece
                            WHERE EXISTS (SELECT 1 FROM course_piece WHERE id = OLD.id * 16777216 + n + 1)
                        )
                        SELECT OLD.id * 16777216 + n FROM piece
                    );
                END;
                """)
        // The courses stored so far, from their geometry.
        let rows = try Row.fetchCursor(db, sql: "SELECT id, geometry FROM course")
        while let row = try rows.next() {
            let blob: Data = row[1]
            guard let activity = try? ActivityCodec.decode(blob), let pieces = CoursePieces(activity) else { continue }
            try pieces.insert(db, courseID: row[0])
        }
        try db.execute(sql: "PRAGMA user_version = 4")
    }

    /// Version 5: an owner may delete a course that other runners' records follow. What those
    /// records show of it (its distance, departure and path) is kept in `deleted_course` under the
    /// course's id, by a trigger, and `record.course_id` no longer references `course` (rebuilt
    /// without the foreign key, as SQLite cannot drop one). Course ids are never reused
    /// (`AUTOINCREMENT`), so a record's course id names the deleted course alone.
    private static func migrateToDeletedCourses(_ db: Database) throws {
        // Record ids are never reused either: the rebuilt table's sequence goes on from the old one's.
        let lastRecordID = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'record'") ?? 0
        try db.execute(
            sql: """
                CREATE TABLE deleted_course (
                    id INTEGER PRIMARY KEY,
                    owner TEXT NOT NULL,
                    distance_m DOUBLE NOT NULL,
                    departure_region TEXT,
                    departure_city TEXT,
                    departure_town TEXT,
                    departure_detail TEXT,
                    departure_name TEXT,
                    geometry BLOB NOT NULL,
                    deleted_at DATETIME NOT NULL
                );
                CREATE TABLE record_v5 (
                    "id" INTEGER PRIMARY KEY AUTOINCREMENT, "owner" TEXT NOT NULL, "course_id" INTEGER NOT NULL,
                    "title" TEXT NOT NULL, "source_format" TEXT NOT NULL, "content_hash" TEXT NOT NULL,
                    "created_at" DATETIME NOT NULL, "start_time" DATETIME, "distance_m" DOUBLE NOT NULL,
                    "point_count" INTEGER NOT NULL, "device_timer_time_s" DOUBLE, "course_time_s" DOUBLE NOT NULL,
                    "course_distance_m" DOUBLE NOT NULL, "match_coverage" DOUBLE NOT NULL, "stats" TEXT NOT NULL,
                    "geometry" BLOB NOT NULL, UNIQUE ("owner", "content_hash"));
                INSERT INTO record_v5 SELECT id, owner, course_id, title, source_format, content_hash, created_at,
                    start_time, distance_m, point_count, device_timer_time_s, course_time_s, course_distance_m,
                    match_coverage, stats, geometry FROM record;
                DROP TABLE record;
                ALTER TABLE record_v5 RENAME TO record;
                CREATE INDEX "record_owner_start" ON "record"("owner", "start_time");
                CREATE INDEX "record_course_owner_time" ON "record"("course_id", "owner", "course_time_s");
                CREATE TRIGGER record_added AFTER INSERT ON record BEGIN
                    UPDATE course SET record_count = record_count + 1 WHERE id = NEW.course_id;
                END;
                CREATE TRIGGER record_removed AFTER DELETE ON record BEGIN
                    UPDATE course SET record_count = record_count - 1 WHERE id = OLD.course_id;
                END;
                CREATE TRIGGER course_kept_for_records BEFORE DELETE ON course
                WHEN EXISTS (SELECT 1 FROM record WHERE course_id = OLD.id) BEGIN
                    INSERT INTO deleted_course (id, owner, distance_m, departure_region, departure_city,
                        departure_town, departure_detail, departure_name, geometry, deleted_at)
                    VALUES (OLD.id, OLD.owner, OLD.distance_m, OLD.departure_region, OLD.departure_city,
                        OLD.departure_town, OLD.departure_detail, OLD.departure_name, OLD.geometry,
                        strftime('%Y-%m-%d %H:%M:%f', 'now'));
                END;
                """)
        try db.execute(
            sql: "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'record'", arguments: [lastRecordID])
        try db.execute(
            sql: "INSERT INTO sqlite_sequence (name, seq) SELECT 'record', ? WHERE ? > 0 AND NOT EXISTS "
                + "(SELECT 1 FROM sqlite_sequence WHERE name = 'record')",
            arguments: [lastRecordID, lastRecordID])
        try db.execute(sql: "PRAGMA user_version = 5")
    }
}
