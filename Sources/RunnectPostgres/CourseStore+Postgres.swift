import RunnectStore

extension CourseStore {
    /// Opens the store in a PostgreSQL database set up by `runnect db init`, acting as the role
    /// the URL connects as (`current_user`): the store's `user` is that role.
    ///
    /// Nothing is written on opening: the schema is checked, and a database without it (or with
    /// one from a newer runnect) refused. Connections are made as transactions need them, a few
    /// kept open, so the store serves several threads.
    ///
    /// - Parameter url: A libpq-style URL (``PostgresURL``).
    /// - Throws: `StoreError.cannotOpen(path:reason:)` when the server cannot be reached, refuses
    ///   the login, or the database has no runnect schema; `StoreError.newerSchema(found:supported:)`.
    public convenience init(postgres url: PostgresURL) async throws {
        try await self.init(backend: PostgresBackend(url: url))
    }
}
