import Foundation
import RunnectPostgres
import RunnectStore

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
    /// - Throws: `PostgresURLError` for a URL that cannot be read, and what
    ///   `CourseStore.init(path:user:creating:)` or `init(postgres:)` throw.
    public static func open(
        _ location: String, user: String? = nil, creating: StoreCreation = .withFolders
    ) async throws -> CourseStore {
        let store: CourseStore
        if PostgresURL.isPostgresURL(location) {
            store = try await CourseStore(postgres: PostgresURL(location))
        } else {
            return try await CourseStore(path: location, user: user ?? defaultUser(), creating: creating)
        }
        guard let user else { return store }
        return try store.acting(as: user)
    }

    /// Whether `location` names a database server rather than a file: what messages about a
    /// location (and `db` subcommands that administer a server) tell apart.
    public static func isServerLocation(_ location: String) -> Bool {
        PostgresURL.isPostgresURL(location)
    }
}
