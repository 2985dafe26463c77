import Foundation
import GRDB
import RunnectKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The embedded backend: one SQLite file (GRDB, WAL mode) for one person on one machine.
///
/// The user is an identity, not access control: anyone who can read the file can read every
/// course. Several stores (in one process or several) can write the same file: writes wait for
/// each other up to ``CourseStore/busyTimeoutSeconds``.
package final class SQLiteBackend: StoreBackend {
    package let location: String
    package let defaultUser: String
    let pool: DatabasePool
    let hooks: StoreHooks

    package var supportedSchemaVersion: Int { Self.migrator.migrations.count }

    /// Opens the file at `path` as ``init(path:user:hooks:creating:)`` does, on a thread of its own.
    static func open(
        path: String, user: String, hooks: StoreHooks, creating: StoreCreation = .withFolders,
        durability: StoreDurability = .processCrash
    ) async throws -> SQLiteBackend {
        try await Prefetch.run {
            try SQLiteBackend(path: path, user: user, hooks: hooks, creating: creating, durability: durability)
        }
    }

    /// Opens the file at `path`, creating it (and its folders) as `creating` allows, and brings
    /// its schema up to date; a file of a newer schema is refused before anything is written to it.
    /// Blocks while another process creates the file.
    init(
        path: String, user: String, hooks: StoreHooks, creating: StoreCreation = .withFolders,
        durability: StoreDurability = .processCrash
    ) throws {
        self.location = path
        self.defaultUser = user
        self.hooks = hooks
        // SQLite writes `-wal` and `-shm` files beside the database: never beside a device or a pipe.
        let kind = OutputFile.kind(of: path)
        if kind != .missing && kind != .regular {
            throw StoreError.cannotOpen(path: path, reason: "not a regular file")
        }
        if kind == .missing {
            try Self.prepareFolder(of: path, creating: creating)
        }
        // Several processes may open a new file at the same moment: while one of them creates it
        // (WAL switch, migration), the others can meet SQLITE_BUSY where SQLite calls no busy
        // handler, or a migration that ran meanwhile. Those tries start over, up to the timeout.
        let deadline = Date().addingTimeInterval(CourseStore.busyTimeoutSeconds)
        var attempt = 0
        while true {
            do {
                pool = try Self.open(path: path, durability: durability)
                break
            } catch let error as DatabaseError where Self.isTransient(error) && Date() < deadline {
                attempt += 1
                usleep(UInt32.random(in: 1_000...(5_000 * UInt32(min(attempt, 20)))))
            } catch let error as DatabaseError {
                throw StoreError.cannotOpen(path: path, reason: error.message ?? "\(error)")
            }
        }
    }

    /// Before a missing file is made: refuses it (``StoreCreation/never``), checks that its
    /// folder exists (``StoreCreation/inExistingFolder``), or makes the folder.
    private static func prepareFolder(of path: String, creating: StoreCreation) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        switch creating {
        case .never:
            throw StoreError.noStore(path: path)
        case .inExistingFolder:
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
                isDirectory.boolValue
            else {
                // The folder as the path names it (`typo` for `typo/nothere.sqlite`).
                let named = (path as NSString).deletingLastPathComponent
                throw StoreError.noFolder(path: path, folder: named.isEmpty ? directory.path : named)
            }
        case .withFolders:
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw StoreError.cannotOpen(
                    path: path, reason: "cannot create \(directory.path): \(error.localizedDescription)")
            }
        }
    }

    /// Checks the schema of an existing file without writing, opens the pool and migrates.
    private static func open(path: String, durability: StoreDurability) throws -> DatabasePool {
        if FileManager.default.fileExists(atPath: path) {
            try checkSchemaWithoutWriting(path: path)
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(CourseStore.busyTimeoutSeconds)
        configuration.label = "RunnectStore"
        configuration.prepareDatabase { db in
            // With WAL, NORMAL never corrupts and survives a crash or kill -9 of the process; only
            // a power cut may lose the last commits. It saves an fsync per import. A server
            // answering that a change is stored waits for the disk (FULL).
            switch durability {
            case .processCrash: try db.execute(sql: "PRAGMA synchronous = NORMAL")
            case .powerLoss: try db.execute(sql: "PRAGMA synchronous = FULL")
            }
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        // Again inside the pool: another process may have migrated the file meanwhile.
        try pool.read { try checkSchema($0) }
        // GRDB reads the applied migrations before it takes the write lock, and each migration is
        // a transaction of its own: a process that lost the race to create the schema fails with
        // "table already exists", maybe while the winner is still at a later migration. It tries
        // again (what is left to migrate) until the schema is complete, up to the busy timeout.
        let deadline = Date().addingTimeInterval(CourseStore.busyTimeoutSeconds)
        while true {
            do {
                try migrator.migrate(pool)
                return pool
            } catch let error as DatabaseError {
                let complete = try pool.read { db in
                    try checkSchema(db)
                    return try migrator.hasCompletedMigrations(db)
                }
                if complete { return pool }
                guard Date() < deadline else { throw error }
                usleep(UInt32.random(in: 1_000...5_000))
            }
        }
    }

    private static func isTransient(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
    }

    // MARK: - Schema

    /// Throws ``StoreError/newerSchema(found:supported:)`` when `db` was migrated by a newer build.
    static func checkSchema(_ db: Database) throws {
        let version = try userVersion(db)
        let applied = try migrator.appliedIdentifiers(db)
        let supported = migrator.migrations.count
        if version > supported || !applied.isSubset(of: Set(migrator.migrations)) {
            throw StoreError.newerSchema(found: max(version, applied.count), supported: supported)
        }
    }

    /// Checks an existing file through a read-only connection, so that a file from a newer
    /// version is refused before anything (even `PRAGMA journal_mode`) is written to it.
    private static func checkSchemaWithoutWriting(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(CourseStore.busyTimeoutSeconds)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.read { try checkSchema($0) }
        try queue.close()
    }

    static func userVersion(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
    }

    /// GRDB's readers and its one writer.
    package var connectionLimit: Int { pool.configuration.maximumReaderCount + 1 }

    package func schemaVersion() async throws -> Int {
        do {
            return try await pool.read { try Self.userVersion($0) }
        } catch let error as DatabaseError {
            throw StoreError(error)
        }
    }

    // MARK: - Transactions

    /// Runs `body` in a write transaction on GRDB's writer queue (BEGIN IMMEDIATE: writers queue
    /// up on the busy timeout); SQLite errors become ``StoreError/database(_:)``.
    package func write<T: Sendable>(
        as user: String, _ body: @escaping @Sendable (any StoreTransaction) async throws -> T
    ) async throws -> T {
        let hooks = hooks
        do {
            return try await pool.write { db in
                let transaction = SQLiteTransaction(db: db, user: user, hooks: hooks)
                return try ThreadBoundExecutor.run { try await body(transaction) }
            }
        } catch let error as DatabaseError {
            throw StoreError(error)
        }
    }

    /// Runs `body` on a snapshot of the database, on one of GRDB's reader queues.
    package func read<T: Sendable>(
        as user: String, _ body: @escaping @Sendable (any StoreTransaction) async throws -> T
    ) async throws -> T {
        let hooks = hooks
        do {
            return try await pool.read { db in
                let transaction = SQLiteTransaction(db: db, user: user, hooks: hooks)
                return try ThreadBoundExecutor.run { try await body(transaction) }
            }
        } catch let error as DatabaseError {
            throw StoreError(error)
        }
    }

    package func optimizeSearch() async throws {
        do {
            try await pool.write { try SQLiteSearchIndex.optimize($0) }
        } catch let error as DatabaseError {
            throw StoreError(error)
        }
    }

    /// A user of a SQLite store is a name: nothing to set up.
    package func ensureUsers(_ names: [String], enrollingExisting: Bool) async throws -> [String] { [] }

    /// Copies the write-ahead log into the database file and empties it, so that the file's size
    /// is the database's.
    package func checkpoint() async throws {
        do {
            try await pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            }
        } catch let error as DatabaseError {
            throw StoreError(error)
        }
    }

    /// Merges the search index's segments into one (``optimizeSearch()``).
    package func optimize(
        stepDone: @escaping @Sendable (OptimizeReport.Step) -> Void
    ) async throws -> OptimizeReport {
        let before = try await searchIndexSegments()
        let clock = ContinuousClock()
        let start = clock.now
        try await optimizeSearch()
        let seconds = (clock.now - start) / .seconds(1)
        let step = OptimizeReport.Step(
            name: "search index merged", before: before, after: try await searchIndexSegments(), unit: "segments",
            seconds: seconds)
        stepDone(step)
        return OptimizeReport(path: location, backend: "sqlite", steps: [step])
    }

    /// Segments of the search's token index: each query term is looked up in every one (a
    /// figure of the benchmarks; `optimizeSearch()` merges them into one).
    package func searchIndexSegments() async throws -> Int {
        do {
            return try await pool.read { db in
                try Int.fetchOne(db, sql: "SELECT count(DISTINCT segid) FROM course_search_token_idx") ?? 0
            }
        } catch let error as DatabaseError {
            throw StoreError(error)
        }
    }
}

/// Points where tests can make an operation fail midway.
struct StoreHooks: Sendable {
    /// Called inside the import transaction once the course row and its search entry are
    /// written, just before the commit.
    var beforeImportCommit: (@Sendable (Database, Int64) throws -> Void)?
}

extension StoreError {
    init(_ error: DatabaseError) {
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            self = .unavailable(
                "the database stayed locked by another writer for more than "
                    + "\(Int(CourseStore.busyTimeoutSeconds)) s; try again")
        case .SQLITE_FULL:
            self = .storageFull(error.message ?? "SQLITE_FULL")
        default:
            self = .database(error.message ?? "\(error)")
        }
    }
}
