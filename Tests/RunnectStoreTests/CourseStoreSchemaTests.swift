import Foundation
import GRDB
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

@Suite("Store: schema and opening")
struct CourseStoreSchemaTests {
    @Test("a new file gets the current schema, in WAL mode, in folders created for it")
    func newFile() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("deep/er/courses.sqlite").path
            let store = try await CourseStore(path: path, user: "a")
            await #expect(try store.schemaVersion == 6)
            #expect(CourseStore.supportedSchemaVersion == 6)
            #expect(FileManager.default.fileExists(atPath: path))
            try await store.pool.read { db in
                #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
                #expect(
                    try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") == [
                        "v1-courses", "v2-records", "v3-course-starts", "v4-course-pieces", "v5-deleted-courses",
                        "v6-runners",
                    ])
                #expect(try db.tableExists("course") && db.tableExists("scrap"))
                #expect(
                    try db.tableExists("record") && db.tableExists("course_bounds") && db.tableExists("course_start"))
                let indexes = try db.indexes(on: "course").map(\.name)
                for name in [
                    "course_owner_created", "course_shared_created", "course_shared_scraps", "course_shared_distance",
                ] {
                    #expect(indexes.contains(name))
                }
                #expect(try db.foreignKeys(on: "scrap").first?.destinationTable == "course")
                // A record outlives its course's deletion (kept in deleted_course): no foreign key.
                #expect(try db.tableExists("deleted_course") && db.foreignKeys(on: "record").isEmpty)
            }
            // Reopening changes nothing.
            _ = try await store.draw(points: taps(seed: 1), title: "kept")
            let again = try await CourseStore(path: path, user: "b")
            await #expect(try again.schemaVersion == 6)
            await #expect(try again.list(.mine(uploaded: nil)).isEmpty)
            await #expect(throws: StoreError.notFound(1)) { try await again.course(id: 1) }
            await #expect(try CourseStore(path: path, user: "a").course(id: 1).title == "kept")
        }
    }

    @Test("a file migrated by a newer version (unknown migration) is refused and left unchanged")
    func newerMigration() async throws {
        try await withTemporaryDatabase { path in
            do {
                let store = try await CourseStore(path: path, user: "a")
                _ = try await store.draw(points: taps(seed: 1), title: "from v1")
            }
            do {
                let queue = try DatabaseQueue(path: path)
                try await queue.write { db in
                    try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v7-routes')")
                }
                try queue.close()
            }
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            await #expect(throws: StoreError.newerSchema(found: 7, supported: 6)) {
                try await CourseStore(path: path, user: "a")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }
    }

    @Test("a file with a newer user_version is refused and left unchanged")
    func newerUserVersion() async throws {
        try await withTemporaryDatabase { path in
            do { _ = try await CourseStore(path: path, user: "a") }
            do {
                let queue = try DatabaseQueue(path: path)
                try await queue.write { try $0.execute(sql: "PRAGMA user_version = 8") }
                try queue.close()
            }
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let files = try FileManager.default.contentsOfDirectory(
                atPath: (path as NSString).deletingLastPathComponent
            ).sorted()
            await #expect(throws: StoreError.newerSchema(found: 8, supported: 6)) {
                try await CourseStore(path: path, user: "a")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
            let message = StoreError.newerSchema(found: 8, supported: 6).description
            #expect(message.contains("8") && message.contains("6") && message.contains("not changed"))
            _ = files
        }
    }

    @Test("a file that is not a database is refused and left unchanged")
    func notADatabase() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("notes.sqlite").path
            try Data(String(repeating: "not sqlite\n", count: 200).utf8).write(to: URL(fileURLWithPath: path))
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            await #expect {
                _ = try await CourseStore(path: path, user: "a")
            } throws: { error in
                guard case StoreError.cannotOpen(let failed, _) = error else { return false }
                return failed == path
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }
    }

    @Test("default path: $RUNNECT_DB, else $XDG_DATA_HOME, else ~/.local/share")
    func defaultPath() {
        #expect(
            CourseStore.defaultPath(environment: ["RUNNECT_DB": "/tmp/x.sqlite", "XDG_DATA_HOME": "/d", "HOME": "/h"])
                == "/tmp/x.sqlite")
        #expect(
            CourseStore.defaultPath(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]) == "/d/runnect/courses.sqlite")
        #expect(
            CourseStore.defaultPath(environment: ["RUNNECT_DB": "", "XDG_DATA_HOME": "", "HOME": "/h"])
                == "/h/.local/share/runnect/courses.sqlite")
        // A relative XDG_DATA_HOME is ignored, as the XDG spec says.
        #expect(
            CourseStore.defaultPath(environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"])
                == "/h/.local/share/runnect/courses.sqlite")
    }

    @Test("default user: $RUNNECT_USER, else the login name")
    func defaultUser() {
        #expect(CourseStore.defaultUser(environment: ["RUNNECT_USER": "지민", "USER": "x"]) == "지민")
        let login = CourseStore.defaultUser(environment: [:])
        #expect(!login.isEmpty)
        #expect(CourseStore.defaultUser(environment: ["RUNNECT_USER": ""]) == login)
    }
}
