import GRDB

extension CourseStore {
    /// The schema, one migration per version. Append-only: a released migration is never edited,
    /// and migrations use string names (not record types), so they keep meaning what they meant.
    /// Each one sets `user_version` to its position, the ``schemaVersion`` users see.
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

        return migrator
    }
}
