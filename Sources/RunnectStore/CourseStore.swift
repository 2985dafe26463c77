import Foundation
import GRDB
import RunnectKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The course store: one SQLite file (GRDB, WAL mode) holding runners' courses, their paths,
/// shares and scraps. Every SQL statement of Runnect lives behind this type.
///
/// A store acts for one ``user``: courses it imports or draws belong to that user, only that
/// user's own courses can be renamed, deleted, uploaded or un-uploaded through it, and
/// ``Course/isScrapped`` is that user's flag. The user is an identity, not access control:
/// anyone who can read the file can read every course.
///
/// A store can be used from several threads, and several stores (in one process or several)
/// can write the same file: writes wait for each other up to ``busyTimeoutSeconds``.
///
/// ## Topics
///
/// ### Opening
/// - ``init(path:user:)``
/// - ``defaultPath(environment:)``
/// - ``defaultUser(environment:)``
///
/// ### Adding
/// - ``importFile(path:title:description:departure:)``
/// - ``importActivity(_:contentHash:title:description:departure:fileName:)``
/// - ``draw(points:title:description:departure:)``
///
/// ### Reading
/// - ``course(id:)``
/// - ``activity(id:)``
/// - ``list(_:sort:page:)``
/// - ``search(keywords:scope:sort:page:)``
/// - ``readCourses(in:sort:_:)``
///
/// ### Changing
/// - ``rename(id:title:)``
/// - ``delete(ids:withRecords:)``
/// - ``upload(id:title:description:)``
/// - ``unupload(id:)``
/// - ``scrap(id:)``
/// - ``unscrap(id:)``
///
/// ### Records of runs
/// - ``store(_:)``
/// - ``record(id:)``
/// - ``recordActivity(id:)``
/// - ``records(course:sort:page:)``
/// - ``recordSummary(course:)``
/// - ``recordFigures(course:)``
/// - ``renameRecord(id:title:)``
/// - ``deleteRecords(ids:)``
public final class CourseStore: Sendable {
    /// The user the store acts for.
    public let user: String
    /// The database file.
    public let path: String

    let pool: DatabasePool
    let hooks: StoreHooks

    /// How long a write waits for another writer to finish before failing, seconds.
    public static let busyTimeoutSeconds: TimeInterval = 10
    /// The longest title, in characters (the service's limit).
    public static let maximumTitleLength = 40

    /// Opens the store at `path`, creating the file and its folders if needed, and brings its
    /// schema up to date.
    ///
    /// A file written by a newer Runnect (a schema version or a migration this build does not
    /// know) is detected through a read-only connection before anything is written, and left
    /// byte for byte as it was.
    ///
    /// - Parameters:
    ///   - path: The database file (see ``defaultPath(environment:)``).
    ///   - user: Who is acting (see ``defaultUser(environment:)``).
    /// - Throws: ``StoreError/newerSchema(found:supported:)``, ``StoreError/cannotOpen(path:reason:)``
    ///   (also for a path that is a device, a pipe or a folder), ``StoreError/invalidUser(_:)`` and
    ///   ``StoreError/controlCharacter(field:scalar:position:)`` for a blank user name or one with a
    ///   control character.
    public convenience init(path: String, user: String) throws {
        try self.init(path: path, user: user, hooks: StoreHooks())
    }

    /// `hooks` lets tests fail an operation midway.
    init(path: String, user: String, hooks: StoreHooks) throws {
        try Self.refuseControlCharacters(in: user, field: "user name")
        guard !user.allSatisfy(\.isWhitespace) else { throw StoreError.invalidUser(user) }
        self.user = user
        self.path = path
        self.hooks = hooks
        // SQLite writes `-wal` and `-shm` files beside the database: never beside a device or a pipe.
        if OutputFile.kind(of: path) != .missing && OutputFile.kind(of: path) != .regular {
            throw StoreError.cannotOpen(path: path, reason: "not a regular file")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError.cannotOpen(
                path: path, reason: "cannot create \(directory.path): \(error.localizedDescription)")
        }
        // Several processes may open a new file at the same moment: while one of them creates it
        // (WAL switch, migration), the others can meet SQLITE_BUSY where SQLite calls no busy
        // handler, or a migration that ran meanwhile. Those tries start over, up to the timeout.
        let deadline = Date().addingTimeInterval(Self.busyTimeoutSeconds)
        var attempt = 0
        while true {
            do {
                pool = try Self.open(path: path)
                break
            } catch let error as DatabaseError where Self.isTransient(error) && Date() < deadline {
                attempt += 1
                usleep(UInt32.random(in: 1_000...(5_000 * UInt32(min(attempt, 20)))))
            } catch let error as DatabaseError {
                throw StoreError.cannotOpen(path: path, reason: error.message ?? "\(error)")
            }
        }
    }

    /// Checks the schema of an existing file without writing, opens the pool and migrates.
    private static func open(path: String) throws -> DatabasePool {
        if FileManager.default.fileExists(atPath: path) {
            try checkSchemaWithoutWriting(path: path)
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeoutSeconds)
        configuration.label = "RunnectStore"
        configuration.prepareDatabase { db in
            // With WAL, NORMAL never corrupts and survives a crash or kill -9 of the process; only
            // a power cut may lose the last commits. It saves an fsync per import.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        // Again inside the pool: another process may have migrated the file meanwhile.
        try pool.read { try checkSchema($0) }
        // GRDB reads the applied migrations before it takes the write lock, and each migration is
        // a transaction of its own: a process that lost the race to create the schema fails with
        // "table already exists", maybe while the winner is still at a later migration. It tries
        // again (what is left to migrate) until the schema is complete, up to the busy timeout.
        let deadline = Date().addingTimeInterval(busyTimeoutSeconds)
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

    /// The schema version of the file (SQLite's `user_version`): the number of migrations applied.
    public var schemaVersion: Int {
        get throws {
            try read { try Self.userVersion($0) }
        }
    }

    /// The newest schema version this build knows.
    public static var supportedSchemaVersion: Int { migrator.migrations.count }

    // MARK: - Defaults

    /// The database file to use: `$RUNNECT_DB`, else `$XDG_DATA_HOME/runnect/courses.sqlite`,
    /// else `~/.local/share/runnect/courses.sqlite`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment["RUNNECT_DB"], !path.isEmpty { return path }
        // The XDG base directory spec says relative values are to be ignored.
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data).appendingPathComponent("runnect/courses.sqlite").path
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/runnect/courses.sqlite").path
    }

    /// The user to act as: `$RUNNECT_USER`, else the login name of the process's user, else
    /// `$USER`, else `"runner"`.
    public static func defaultUser(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let user = environment["RUNNECT_USER"], !user.isEmpty { return user }
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name {
            let login = String(cString: name)
            if !login.isEmpty { return login }
        }
        if let user = environment["USER"], !user.isEmpty { return user }
        return "runner"
    }

    // MARK: - Schema

    /// Throws ``StoreError/newerSchema(found:supported:)`` when `db` was migrated by a newer build.
    static func checkSchema(_ db: Database) throws {
        let version = try userVersion(db)
        let applied = try migrator.appliedIdentifiers(db)
        let supported = supportedSchemaVersion
        if version > supported || !applied.isSubset(of: Set(migrator.migrations)) {
            throw StoreError.newerSchema(found: max(version, applied.count), supported: supported)
        }
    }

    /// Checks an existing file through a read-only connection, so that a file from a newer
    /// version is refused before anything (even `PRAGMA journal_mode`) is written to it.
    private static func checkSchemaWithoutWriting(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeoutSeconds)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.read { try checkSchema($0) }
        try queue.close()
    }

    static func userVersion(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
    }

    // MARK: - Access

    /// Runs `body` in a write transaction (BEGIN IMMEDIATE: writers queue up on the busy
    /// timeout); SQLite errors become ``StoreError/database(_:)``.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try pool.write(body)
        } catch let error as DatabaseError {
            throw StoreError(error)
        }
    }

    /// Copies the write-ahead log into the database file and empties it, so that the file's size
    /// is the database's (a figure of the benchmarks).
    package func checkpoint() throws {
        do {
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            }
        } catch let error as DatabaseError {
            throw StoreError(error)
        }
    }

    /// Runs `body` on a snapshot of the database.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try pool.read(body)
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
            self = .database(
                "the database stayed locked by another writer for more than "
                    + "\(Int(CourseStore.busyTimeoutSeconds)) s; try again")
        default:
            self = .database(error.message ?? "\(error)")
        }
    }
}
