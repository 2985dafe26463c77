import RunnectPostgres
import RunnectTestSupport

/// A fresh database on the tests' cluster, and URLs to it.
struct ClusterDatabase {
    let cluster: PostgresCluster
    let name: String

    init() throws {
        cluster = try PostgresCluster.get()
        name = try cluster.makeDatabase()
    }

    /// The superuser over the Unix socket.
    var adminURL: PostgresURL {
        get throws { try PostgresURL(cluster.url(database: name), environment: [:]) }
    }

    /// `role` over TCP with `password`.
    func url(role: String, password: String?) throws -> PostgresURL {
        try PostgresURL(cluster.url(database: name, user: role, password: password), environment: [:])
    }

    /// Runs SQL as the superuser; returns what psql printed.
    @discardableResult
    func adminSQL(_ sql: String) throws -> PostgresCluster.PsqlResult {
        try cluster.psql(["-d", name, "-c", sql])
    }
}
