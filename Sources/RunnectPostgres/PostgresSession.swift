import Foundation
import Logging
import NIOSSL
import PostgresNIO
import RunnectStore

/// One connection to a PostgreSQL store, as the role the URL names.
///
/// What the server says goes into `StoreError` values: a connection that fails
/// is `StoreError.cannotOpen(path:reason:)` naming the URL without its
/// password, a statement the server refuses is `StoreError.database(_:)`
/// with the server's message and hint.
package struct PostgresSession: Sendable {
    let connection: PostgresConnection
    let url: PostgresURL
    let logger: Logger

    /// The library's logger says nothing: what matters reaches the caller as a thrown error.
    static let silentLogger = Logger(label: "runnect.postgres") { _ in SwiftLogNoOpLogHandler() }

    /// Connects, runs `body`, and closes the connection however `body` ends.
    package static func with<T: Sendable>(
        _ url: PostgresURL, _ body: (PostgresSession) async throws -> T
    ) async throws -> T {
        let session = try await open(url)
        do {
            let value = try await body(session)
            try? await session.connection.close()
            return value
        } catch {
            try? await session.connection.close()
            throw error
        }
    }

    static func open(_ url: PostgresURL) async throws -> PostgresSession {
        let configuration: PostgresConnection.Configuration
        do {
            configuration = try url.connectionConfiguration()
        } catch {
            throw StoreError.cannotOpen(path: url.description, reason: "TLS set-up failed: \(error)")
        }
        do {
            let connection = try await PostgresConnection.connect(
                configuration: configuration, id: 1, logger: silentLogger)
            return PostgresSession(connection: connection, url: url, logger: silentLogger)
        } catch {
            throw StoreError.cannotOpen(path: url.description, reason: Self.message(of: error))
        }
    }

    /// Runs one statement and returns its rows; values travel as bound parameters.
    @discardableResult
    package func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
        do {
            return try await connection.query(query, logger: logger).collect()
        } catch {
            throw StoreError.database(Self.message(of: error))
        }
    }

    /// Runs each statement of a fixed script (no values of anyone's typing) in order.
    package func execute(_ statements: [String]) async throws {
        for statement in statements {
            try await query(PostgresQuery(unsafeSQL: statement))
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    package func transaction<T: Sendable>(_ body: (PostgresSession) async throws -> T) async throws -> T {
        try await query("BEGIN")
        do {
            let value = try await body(self)
            try await query("COMMIT")
            return value
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger).collect()
            throw error
        }
    }

    /// The server's message (with its hint) for a refused statement, else the kind of failure.
    static func message(of error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let info = error.serverInfo, let message = info[.message] {
            let hint = info[.hint].map { " (\($0))" } ?? ""
            return message + hint
        }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }

    /// The SQLSTATE of a refused statement (`42501` for a permission denied).
    static func sqlState(of error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }
}

extension PostgresURL {
    /// The postgres-nio configuration: endpoint, role, password, database, TLS per ``sslMode``,
    /// and `jit = off` for the session: the store's statements are short, and at a million
    /// courses the planner's costs passed `jit_above_cost`, so compiling a statement's
    /// expressions (about 6 ms) cost more than running it.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        switch endpoint {
        case .unixSocket:
            configuration = .init(
                unixSocketPath: socketPath ?? "", username: user, password: password, database: database)
        case .tcp(let host, let port):
            configuration = .init(
                host: host, port: port, username: user, password: password, database: database, tls: try tls())
        }
        if let seconds = connectTimeoutSeconds, seconds > 0 {
            configuration.options.connectTimeout = .seconds(Int64(seconds))
        }
        configuration.options.additionalStartupParameters += startupParameters
        return configuration
    }

    /// `application_name` when the URL names one, and `jit = off`.
    private var startupParameters: [(String, String)] {
        (applicationName.map { [("application_name", $0)] } ?? []) + [("jit", "off")]
    }

    /// The configuration of a `PostgresClient` (the backend's pool) on the same terms as
    /// ``connectionConfiguration()``.
    func clientConfiguration() throws -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        switch endpoint {
        case .unixSocket:
            configuration = .init(
                unixSocketPath: socketPath ?? "", username: user, password: password, database: database)
        case .tcp(let host, let port):
            let tls: PostgresClient.Configuration.TLS
            if let settings = try tlsConfiguration() {
                tls = sslMode == .prefer ? .prefer(settings) : .require(settings)
            } else {
                tls = .disable
            }
            configuration = .init(
                host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
        if let seconds = connectTimeoutSeconds, seconds > 0 {
            configuration.options.connectTimeout = .seconds(Int64(seconds))
        }
        configuration.options.additionalStartupParameters += startupParameters
        // Idle connections go after a few seconds: a CLI's store, a test's, leaves none behind.
        configuration.options.connectionIdleTimeout = .seconds(10)
        configuration.options.keepAliveBehavior = nil
        return configuration
    }

    /// The TLS settings of ``sslMode``; `nil` for `disable`.
    private func tlsConfiguration() throws -> TLSConfiguration? {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch sslMode {
        case .disable: return nil
        case .prefer, .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let sslRootCertificate { tls.trustRoots = .file(sslRootCertificate) }
        return tls
    }

    private func tls() throws -> PostgresConnection.Configuration.TLS {
        guard let settings = try tlsConfiguration() else { return .disable }
        let context = try NIOSSLContext(configuration: settings)
        return sslMode == .prefer ? .prefer(context) : .require(context)
    }
}
