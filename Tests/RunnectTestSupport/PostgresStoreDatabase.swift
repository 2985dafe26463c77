import Foundation
import RunnectPostgres
import RunnectStore

/// A fresh database set up by `runnect db init`, whose runners are login roles made by
/// `runnect db add-user` (PostgresAdministration): the PostgreSQL side of a store test.
public struct PostgresStoreDatabase: Sendable {
    public let database: ClusterDatabase

    /// A new database on the tests' cluster, initialised.
    public init() async throws {
        let database = try ClusterDatabase()
        let url = try database.adminURL
        _ = try await Self.initializing.run { try await PostgresAdministration.initialize(url) }
        self.database = database
    }

    /// Two initialisations at a time: each creates PostGIS in one transaction, whose thousand-odd
    /// objects take as many locks, and the server's lock table (`max_locks_per_transaction` for
    /// each connection) overflows when the store tests' hundred-odd databases are made at once
    /// ("out of shared memory").
    private static let initializing = AsyncLimiter(width: 2)

    /// A new runner role, named after `base` (role names are the cluster's: made unique), and
    /// its URL. The role name is what the store's `user` will be.
    public func addRunner(_ base: String) async throws -> (role: String, url: PostgresURL) {
        let role = PostgresCluster.uniqueRoleName(base)
        let password = "\(role) pw"
        _ = try await PostgresAdministration.addRunner(
            try RoleName(role), password: password, existing: false, at: try database.adminURL)
        return (role, try database.url(role: role, password: password))
    }

    /// A new server's role named after `base` (`runnect db add-user NAME --server`), which acts
    /// as each runner, and its URL.
    public func addServer(_ base: String) async throws -> (role: String, url: PostgresURL) {
        let role = PostgresCluster.uniqueRoleName(base)
        let password = "\(role) pw"
        _ = try await PostgresAdministration.addRunner(
            try RoleName(role), password: password, existing: false, server: true, at: try database.adminURL)
        return (role, try database.url(role: role, password: password))
    }

    /// A backend for a new runner named after `base`.
    package func backend(_ base: String, plans: PostgresSearchPlans = .standard) async throws -> PostgresBackend {
        try await PostgresBackend(url: try await addRunner(base).url, searchPlans: plans)
    }
}
