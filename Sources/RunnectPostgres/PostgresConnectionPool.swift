import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import RunnectStore

/// A few open connections to one PostgreSQL store, for the synchronous store API.
///
/// A transaction checks a connection out, and back in when it ends; a connection that failed is
/// closed instead of coming back. Connecting and every statement wait on postgres-nio's futures,
/// which its event loops complete: the waiting thread (the CLI's, an import worker's, or a test's
/// task on the cooperative pool) is never one they need.
final class PostgresConnectionPool: @unchecked Sendable {
    let url: PostgresURL
    let configuration: PostgresConnection.Configuration
    /// Idle connections kept open at most; more are closed when they come back.
    let maximumIdle: Int

    private let lock = NSLock()
    private var idle: [PostgresConnection] = []
    private var nextID = 1

    /// How long a reconnection keeps trying while the server restarts, seconds.
    static let reconnectSeconds: TimeInterval = 15

    init(url: PostgresURL, maximumIdle: Int = 8) throws {
        self.url = url
        self.maximumIdle = maximumIdle
        do {
            configuration = try url.connectionConfiguration()
        } catch {
            throw StoreError.cannotOpen(path: url.description, reason: "TLS set-up failed: \(error)")
        }
    }

    deinit {
        for connection in idle { try? connection.close().wait() }
    }

    /// An idle connection, else a new one.
    /// - Parameter patiently: Keep trying for ``reconnectSeconds`` while the server cannot be
    ///   reached or is starting up (after a connection was lost).
    /// - Throws: `StoreError.cannotOpen(path:reason:)`.
    func checkOut(patiently: Bool = false) throws -> PostgresConnection {
        while let connection = takeIdle() {
            if !connection.isClosed { return connection }
            discard(connection)
        }
        let deadline = Date().addingTimeInterval(patiently ? Self.reconnectSeconds : 0)
        var attempt = 0
        while true {
            do {
                return try connect()
            } catch {
                attempt += 1
                guard Date() < deadline, PostgresFailure(error).isTransientConnectFailure else {
                    throw StoreError.cannotOpen(path: url.description, reason: PostgresSession.message(of: error))
                }
                usleep(UInt32(min(attempt, 10)) * 100_000)
            }
        }
    }

    /// Returns a healthy connection after its transaction ended.
    func checkIn(_ connection: PostgresConnection) {
        guard !connection.isClosed else { return discard(connection) }
        lock.lock()
        if idle.count < maximumIdle {
            idle.append(connection)
            lock.unlock()
        } else {
            lock.unlock()
            discard(connection)
        }
    }

    /// Closes a connection that failed or is not needed any more.
    func discard(_ connection: PostgresConnection) {
        try? connection.close().wait()
    }

    private func takeIdle() -> PostgresConnection? {
        lock.lock()
        defer { lock.unlock() }
        return idle.popLast()
    }

    private func connect() throws -> PostgresConnection {
        lock.lock()
        let id = nextID
        nextID += 1
        lock.unlock()
        return try PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration, id: id,
            logger: PostgresSession.silentLogger
        ).wait()
    }
}
