import PostgresNIO
import RunnectStore

/// What a failed statement means for its transaction: try it again, reconnect, or report it.
struct PostgresFailure {
    /// The server's SQLSTATE, when it answered.
    let sqlState: String?
    /// postgres-nio's kind of failure, when the error is one of its own.
    let code: PSQLError.Code?
    /// The error as it came.
    let error: any Error

    init(_ error: any Error) {
        self.error = error
        let psql = error as? PSQLError
        code = psql?.code
        sqlState = psql?.serverInfo?[.sqlState]
    }

    /// Whether the error is the server's or the connection's (not the store's own, nor the caller's).
    var isDatabaseError: Bool { error is PSQLError }

    /// A serialization failure or a deadlock: the server rolled the transaction back, and running
    /// it again is expected to succeed.
    var isRetryable: Bool { sqlState == "40001" || sqlState == "40P01" }

    /// The connection is gone (the server restarted or shut down, the network failed): the
    /// transaction was rolled back by the server unless it was committing.
    /// Thrown instead of sending a statement on a connection already closed.
    struct ConnectionClosed: Error {}

    var isConnectionLost: Bool {
        if error is ConnectionClosed { return true }
        if let code,
            [.serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown].contains(code)
        {
            return true
        }
        guard let sqlState else { return false }
        // 08: connection exception; 57P01-57P03: admin shutdown, crash shutdown, cannot connect now.
        return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
    }

    /// A connection attempt worth repeating while a server restarts: refused, or "starting up".
    var isTransientConnectFailure: Bool {
        isConnectionLost || sqlState == "57P03" || !isDatabaseError || code == .connectionError
    }

    /// The error as a ``StoreError``: the server's message (and hint) for a database error.
    var storeError: StoreError? {
        if let error = error as? StoreError { return error }
        if error is ConnectionClosed { return .unavailable("the connection to the database was lost") }
        guard isDatabaseError else { return nil }
        // 53100: disk_full (the WAL or a table cannot grow).
        if sqlState == "53100" { return .storageFull(PostgresSession.message(of: error)) }
        if isConnectionLost { return .unavailable(PostgresSession.message(of: error)) }
        return .database(PostgresSession.message(of: error))
    }
}
