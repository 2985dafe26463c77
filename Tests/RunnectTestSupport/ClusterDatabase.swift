import RunnectPostgres

/// A fresh database on the tests' cluster, and URLs to it.
public struct ClusterDatabase: Sendable {
    public let cluster: PostgresCluster
    public let name: String

    public init() throws {
        cluster = try PostgresCluster.get()
        name = try cluster.makeDatabase()
    }

    /// The superuser over the Unix socket.
    public var adminURL: PostgresURL {
        get throws { try PostgresURL(cluster.url(database: name), environment: [:]) }
    }

    /// `role` over TCP with `password`.
    public func url(role: String, password: String?) throws -> PostgresURL {
        try PostgresURL(cluster.url(database: name, user: role, password: password), environment: [:])
    }

    /// Runs SQL as the superuser; returns what psql printed.
    @discardableResult
    public func adminSQL(_ sql: String) throws -> PostgresCluster.PsqlResult {
        try cluster.psql(["-d", name, "-c", sql])
    }
}
