import Foundation
import GRDB
import RunnectKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The course store: runners' courses, their paths, shares, scraps and records of runs, in one
/// SQLite file (the embedded default, ``init(path:user:creating:durability:)``) or a PostgreSQL + PostGIS
/// database (`RunnectPostgres`'s `init(postgres:reconnectSeconds:)`); `RunnectBackends`' `CourseStore.open(_:)`
/// picks one by the location. What the store decides is written once, above the two backends.
///
/// Every operation is `async`: SQLite's transactions run on GRDB's own queues, PostgreSQL's on
/// postgres-nio's connections, so a caller on Swift's cooperative pool (a server's handler) is
/// never blocked.
///
/// A handle acts for one ``user``: courses it imports or draws belong to that user, only that
/// user's own courses can be renamed, deleted, uploaded or un-uploaded through it, and
/// ``Course/isScrapped`` is that user's flag. One open store serves many runners:
/// ``acting(as:)`` makes a cheap handle for each, sharing the database and its connections. Both
/// backends read by one rule: a runner reads their own courses and the shared ones; another
/// runner's private course is not found. On SQLite the user is an identity, not access control
/// (anyone who can read the file can read every row); on PostgreSQL each transaction runs as the
/// runner's role, and the database's own row-level security holds every row to it.
///
/// Several stores (in one process or several) can write the same database: on SQLite, writes
/// wait for each other up to ``busyTimeoutSeconds``.
///
/// ## Topics
///
/// ### Opening
/// - ``init(path:user:creating:durability:)``
/// - ``acting(as:)``
/// - ``StoreCreation``
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
///
/// ### Upkeep
/// - ``summary()``
/// - ``optimize(stepDone:)``
/// - ``check(imagesFolder:)``
public final class CourseStore: Sendable {
    /// The runner this handle acts for (see ``acting(as:)``).
    public let user: String
    /// The database: the SQLite file's path, or the PostgreSQL URL without its password.
    public let path: String

    let backend: any StoreBackend
    /// Where what the store went on past goes: a course it could not read and left out of a
    /// list, a search or the index (``StoreWarning``). Nothing is told until a handler is set;
    /// every handle of one open store shares it.
    public let warnings: StoreWarnings
    /// The transactions in flight and their times (``StoreActivity``), for a server's metrics;
    /// every handle of one open store shares it.
    public let activity: StoreActivity

    /// How long a write waits for another writer to finish before failing, seconds.
    public static let busyTimeoutSeconds: TimeInterval = 10
    /// The longest title, in characters (the service's limit).
    public static let maximumTitleLength = 40

    /// Opens the SQLite store at `path`, creating the file and its folders if needed, and brings
    /// its schema up to date.
    ///
    /// A file written by a newer Runnect (a schema version or a migration this build does not
    /// know) is detected through a read-only connection before anything is written, and left
    /// byte for byte as it was.
    ///
    /// - Parameters:
    ///   - path: The database file (see ``defaultPath(environment:)``).
    ///   - user: Who is acting (see ``defaultUser(environment:)``); other runners act through
    ///     ``acting(as:)``.
    ///   - creating: Whether a missing file is made, and its folders (``StoreCreation``).
    ///   - durability: When a commit is sure to be on disk (``StoreDurability``).
    /// - Throws: ``StoreError/newerSchema(found:supported:)``, ``StoreError/cannotOpen(path:reason:)``
    ///   (also for a path that is a device, a pipe or a folder), ``StoreError/invalidUser(_:)`` and
    ///   ``StoreError/controlCharacter(field:scalar:position:)`` for a blank user name or one with a
    ///   control character; ``StoreError/noStore(path:)`` for a missing file with
    ///   ``StoreCreation/never``, ``StoreError/noFolder(path:folder:)`` for a missing folder with
    ///   ``StoreCreation/inExistingFolder`` (nothing is made either way).
    public convenience init(
        path: String, user: String, creating: StoreCreation = .withFolders, durability: StoreDurability = .processCrash
    ) async throws {
        try await self.init(path: path, user: user, hooks: StoreHooks(), creating: creating, durability: durability)
    }

    /// `hooks` lets tests fail an operation midway.
    convenience init(
        path: String, user: String, hooks: StoreHooks, creating: StoreCreation = .withFolders,
        durability: StoreDurability = .processCrash
    ) async throws {
        try Self.checkUser(user)
        let backend = try await SQLiteBackend.open(
            path: path, user: user, hooks: hooks, creating: creating, durability: durability)
        self.init(
            backend: backend, user: user, warnings: StoreWarnings(),
            activity: StoreActivity(connectionLimit: backend.connectionLimit))
    }

    /// A store over `backend`, acting for the backend's default user.
    package convenience init(backend: any StoreBackend) {
        self.init(
            backend: backend, user: backend.defaultUser, warnings: StoreWarnings(),
            activity: StoreActivity(connectionLimit: backend.connectionLimit))
    }

    private init(backend: any StoreBackend, user: String, warnings: StoreWarnings, activity: StoreActivity) {
        self.backend = backend
        self.user = user
        self.path = backend.location
        self.warnings = warnings
        self.activity = activity
    }

    /// A handle on the same open store acting for runner `user`: courses it imports or draws
    /// are theirs, and it reads what they may read. Cheap: the database, its connections and
    /// ``warnings`` are shared, so one store serves many runners at once.
    ///
    /// On SQLite a runner is a name. On PostgreSQL each transaction runs as the runner's login
    /// role (`SET LOCAL ROLE`), so row-level security decides every statement: the role the
    /// store connected as must be that runner, or a member of `runnect_server` (which
    /// `runnect db init` and `runnect db add-user` grant every runner to).
    /// - Throws: ``StoreError/invalidUser(_:)`` and ``StoreError/controlCharacter(field:scalar:position:)``
    ///   for a blank name or one with a control character.
    public func acting(as user: String) throws -> CourseStore {
        guard user != self.user else { return self }
        try Self.checkUser(user)
        return CourseStore(backend: backend, user: user, warnings: warnings, activity: activity)
    }

    /// Refuses a blank user name or one with a control character.
    static func checkUser(_ user: String) throws {
        try refuseControlCharacters(in: user, field: "user name")
        guard !user.allSatisfy(\.isWhitespace) else { throw StoreError.invalidUser(user) }
    }

    /// The schema version of the database: the number of migrations applied.
    public var schemaVersion: Int {
        get async throws { try await backend.schemaVersion() }
    }

    /// The newest schema version this build knows, for SQLite files.
    public static var supportedSchemaVersion: Int { SQLiteBackend.migrator.migrations.count }

    /// The SQLite backend's pool (tests look into the file through it).
    var pool: DatabasePool {
        guard let sqlite = backend as? SQLiteBackend else { preconditionFailure("not a SQLite store") }
        return sqlite.pool
    }

    // MARK: - Defaults

    /// How a database server's location starts (any case): a PostgreSQL URL. Anything else is a
    /// SQLite path.
    package static let serverSchemes = ["postgresql://", "postgres://"]

    /// The database to use: `$RUNNECT_DB` (a SQLite path or a PostgreSQL URL), else
    /// `$XDG_DATA_HOME/runnect/courses.sqlite`, else `~/.local/share/runnect/courses.sqlite`.
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

    // MARK: - Access

    /// Runs `body` in a write transaction of the backend, as ``user``.
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        try await activity.measure(.write) { try await backend.write(as: user, body) }
    }

    /// Runs `body` on a snapshot of the database, as ``user``.
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        try await activity.measure(.read) {
            try await backend.read(as: user) { tx in
                let result = try await body(tx)
                self.warnings.report(tx.unreadable.take())
                return result
            }
        }
    }

    /// Makes the database's size on disk its data's: a SQLite store's write-ahead log copied into
    /// the file (a figure of the benchmarks); nothing on PostgreSQL.
    package func checkpoint() async throws {
        try await backend.checkpoint()
    }
}
