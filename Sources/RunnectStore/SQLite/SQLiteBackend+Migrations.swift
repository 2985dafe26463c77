import GRDB

extension SQLiteBackend {
    /// The schema, one migration per version. Append-only: a released migration is never edited.
    /// Each runs its SQL file as shipped (`SQLite/Migrations/vN-name.sql`, pinned by
    /// `MigrationChecksumTests`), with what only Swift can do in a frozen file beside it, and calls
    /// no live code; string names (not record types) keep them meaning what they meant. Each sets
    /// `user_version` to its position, the ``CourseStore/schemaVersion`` users see;
    /// `SQLite/Schema/current.sql` shows the schema they make.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-courses") { db in
            try db.execute(sql: script(PackageResources.v1_courses_sql))
        }
        migrator.registerMigration("v2-records") { db in
            try db.execute(sql: script(PackageResources.v2_records_sql))
        }
        migrator.registerMigration("v3-course-starts") { db in
            try CourseStartsMigration.migrate(db, script: script(PackageResources.v3_course_starts_sql))
        }
        migrator.registerMigration("v4-course-pieces") { db in
            try CoursePiecesMigration.migrate(db, script: script(PackageResources.v4_course_pieces_sql))
        }
        migrator.registerMigration("v5-deleted-courses") { db in
            try DeletedCoursesMigration.migrate(db, script: script(PackageResources.v5_deleted_courses_sql))
        }
        migrator.registerMigration("v6-runners") { db in
            try db.execute(sql: script(PackageResources.v6_runners_sql))
        }
        return migrator
    }

    /// A migration's SQL file as text.
    private static func script(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
