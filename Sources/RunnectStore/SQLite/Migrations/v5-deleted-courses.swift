import GRDB

/// Version 5 (`v5-deleted-courses.sql`) with what its SQL cannot say alone: the record ids go on
/// from the old table's sequence once the table is rebuilt, so that no record id is reused.
/// Pinned by its checksum (`MigrationChecksumTests`): never edit, add a version.
enum DeletedCoursesMigration {
    static func migrate(_ db: Database, script: String) throws {
        let lastRecordID = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'record'") ?? 0
        try db.execute(sql: script)
        try db.execute(
            sql: "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'record'", arguments: [lastRecordID])
        try db.execute(
            sql: "INSERT INTO sqlite_sequence (name, seq) SELECT 'record', ? WHERE ? > 0 AND NOT EXISTS "
                + "(SELECT 1 FROM sqlite_sequence WHERE name = 'record')",
            arguments: [lastRecordID, lastRecordID])
    }
}
