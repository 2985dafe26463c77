import RunnectStore

extension CourseStore {
    /// Opens the store in a PostgreSQL database set up by `runnect db init`, acting as the role
    /// the URL connects as (`current_user`): the store's `user` is that role.
    ///
    /// Nothing is written on opening: the schema is checked, and a database without it (or with
    /// one from a newer runnect) refused. Connections are made as transactions need them, a few
    /// kept open, so the store serves several threads.
    ///
    /// - Parameters:
    ///   - url: A libpq-style URL (``PostgresURL``).
    ///   - reconnectSeconds: How long a transaction whose connection was lost (a restarting
    ///     server) tries again on new ones before it fails with `StoreError.unavailable(_:)`: 15 s
    ///     by default, a command's patience; a server answering clients waits less.
    /// - Throws: `StoreError.cannotOpen(path:reason:)` when the server cannot be reached, refuses
    ///   the login, or the database has no runnect schema; `StoreError.newerSchema(found:supported:)`.
    public convenience init(postgres url: PostgresURL, reconnectSeconds: Double? = nil) async throws {
        try await self.init(
            backend: PostgresBackend(
                url: url, reconnectSeconds: reconnectSeconds ?? PostgresBackend.defaultReconnectSeconds))
    }
}
