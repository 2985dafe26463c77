import Foundation
import RunnectPostgres
import RunnectStore
import RunnectTestSupport

/// A fresh database set up by `runnect db init`, whose runners are login roles made by
/// `runnect db add-user` (PostgresAdministration): the PostgreSQL side of a store test.
struct PostgresStoreDatabase {
    let database: ClusterDatabase

    /// A new database on the tests' cluster, initialised.
    init() async throws {
        database = try ClusterDatabase()
        _ = try await PostgresAdministration.initialize(try database.adminURL)
    }

    /// A new runner role, named after `base` (role names are the cluster's: made unique), and
    /// its URL. The role name is what the store's `user` will be.
    func addRunner(_ base: String) async throws -> (role: String, url: PostgresURL) {
        let role = PostgresCluster.uniqueRoleName(base)
        let password = "\(role) pw"
        _ = try await PostgresAdministration.addRunner(
            try RoleName(role), password: password, existing: false, at: try database.adminURL)
        return (role, try database.url(role: role, password: password))
    }

    /// A backend for a new runner named after `base`.
    func backend(_ base: String, plans: PostgresSearchPlans = .standard) async throws -> PostgresBackend {
        try PostgresBackend(url: try await addRunner(base).url, searchPlans: plans)
    }
}
