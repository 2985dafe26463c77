import Foundation
import RunnectStore

#if PostgreSQL
    import RunnectPostgres
#endif

extension CourseStore {
    /// Opens the store at `location` with the backend it names: a `postgresql://` (or
    /// `postgres://`) URL is a PostgreSQL database set up by `runnect db init`, anything else a
    /// SQLite file.
    ///
    /// One open store serves many runners: `CourseStore.acting(as:)` gives a handle for each.
    ///
    /// - Parameters:
    ///   - location: A SQLite path or a PostgreSQL URL (see `CourseStore.defaultPath(environment:)`).
    ///   - user: Who acts: on SQLite, by default `CourseStore.defaultUser(environment:)`; on
    ///     PostgreSQL, by default the role that connected, and another runner only when that role
    ///     is a server's (a member of `runnect_server`).
    ///   - creating: What a SQLite store may make of a missing file (`StoreCreation`); nothing is
    ///     made on PostgreSQL.
    ///   - durability: On SQLite, when a commit is sure to be on disk (`StoreDurability`); on
    ///     PostgreSQL the server's settings decide.
    ///   - reconnectSeconds: On PostgreSQL, how long a transaction tries new connections after
    ///     losing one before `StoreError.unavailable(_:)` (`nil`: a command's 15 s).
    /// - Throws: `PostgresURLError` for a URL that cannot be read, ``BackendNotBuilt`` for a URL
    ///   in a build without the `PostgreSQL` trait, and what `CourseStore.init(path:user:creating:durability:)`
    ///   or `init(postgres:reconnectSeconds:)` throw.
    public static func open(
        _ location: String, user: String? = nil, creating: StoreCreation = .withFolders,
        durability: StoreDurability = .processCrash, reconnectSeconds: Double? = nil
    ) async throws -> CourseStore {
        guard isServerLocation(location) else {
            return try await CourseStore(
                path: location, user: user ?? defaultUser(), creating: creating, durability: durability)
        }
        #if PostgreSQL
            let store = try await CourseStore(postgres: PostgresURL(location), reconnectSeconds: reconnectSeconds)
            guard let user else { return store }
            return try store.acting(as: user)
        #else
            throw BackendNotBuilt.postgreSQL
        #endif
    }

    /// Whether `location` names a database server rather than a file (a `postgresql://` or
    /// `postgres://` URL, in any build): what messages about a location (and `db` subcommands
    /// that administer a server) tell apart.
    public static func isServerLocation(_ location: String) -> Bool {
        let lowered = location.lowercased()
        return serverSchemes.contains { lowered.hasPrefix($0) }
    }

    /// Whether this build opens PostgreSQL stores (the package's `PostgreSQL` trait).
    public static var hasPostgreSQL: Bool {
        #if PostgreSQL
            true
        #else
            false
        #endif
    }
}
