import RunnectPostgres
import RunnectStore

extension PostgresBackend {
    /// The role that connected: who the backend's tests act as.
    package var user: String { sessionUser }

    /// A read transaction as the role that connected.
    package func read<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) async throws -> T
    ) async throws -> T {
        try await read(as: sessionUser, body)
    }

    /// A write transaction as the role that connected.
    package func write<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) async throws -> T
    ) async throws -> T {
        try await write(as: sessionUser, body)
    }

    /// A copy's write transaction as the role that connected.
    package func writeBeside<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) async throws -> T
    ) async throws -> T {
        try await writeBeside(as: sessionUser, body)
    }
}
