import Foundation
import RunnectStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a PostgreSQL store is and how to reach it, read from a libpq-style connection URL.
///
/// The URL is what `psql` takes:
/// `postgresql://[user[:password]@][host][:port][/database][?name=value&…]` (or `postgres://`).
/// Every part is percent-decoded. The host is a name, an IPv4 address, an IPv6 address in
/// brackets, or a Unix socket's folder: percent-encoded in the host part
/// (`postgresql://%2Fvar%2Frun%2Fpostgresql/club`) or as the `host` parameter
/// (`postgresql:///club?host=/var/run/postgresql`). The parameters taken are `host`, `port`,
/// `user`, `password`, `dbname`, `sslmode`, `sslrootcert`, `application_name` and
/// `connect_timeout`; a parameter overrides the same part of the URL.
///
/// What the URL leaves out comes, as for libpq, from `PGHOST`, `PGPORT`, `PGUSER`,
/// `PGPASSWORD`, `PGDATABASE` and `PGSSLMODE`, else from libpq's defaults: the Unix socket in
/// `/var/run/postgresql`, port 5432, the login name as the user, the user's name as the
/// database, `sslmode=prefer`.
///
/// ```swift
/// let url = try PostgresURL("postgresql://minji:s%40fe@db.example.org/club?sslmode=verify-full")
/// url.user          // "minji"
/// url.password      // "s@fe"
/// url.sslMode       // .verifyFull
/// ```
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    /// How the server is reached.
    public enum Endpoint: Sendable, Hashable {
        /// TCP to a host name or address.
        case tcp(host: String, port: Int)
        /// The Unix socket `.s.PGSQL.<port>` in `directory`.
        case unixSocket(directory: String, port: Int)
    }

    /// The server.
    public var endpoint: Endpoint
    /// The role to connect as, and so the user the store acts for.
    public var user: String
    /// The role's password, if the server asks for one.
    public var password: String?
    /// The database.
    public var database: String
    /// Whether and how TLS is used over TCP (never over a Unix socket, as with libpq).
    public var sslMode: SSLMode
    /// A PEM file of the certificate authorities trusted for `verify-ca` and `verify-full`
    /// (default: the system's).
    public var sslRootCertificate: String?
    /// The name the server shows for the connection (`pg_stat_activity`).
    public var applicationName: String?
    /// How long connecting may take, seconds (default 10).
    public var connectTimeoutSeconds: Int?

    /// The scheme prefixes of a PostgreSQL URL.
    static let schemes = CourseStore.serverSchemes

    /// Whether `text` names a PostgreSQL database (its scheme), not a SQLite file.
    public static func isPostgresURL(_ text: String) -> Bool {
        schemes.contains { text.lowercased().hasPrefix($0) }
    }

    /// Reads a connection URL.
    ///
    /// - Parameters:
    ///   - text: The URL.
    ///   - environment: Where `PGHOST` and the other defaults are read from.
    /// - Throws: ``PostgresURLError`` naming the part that is wrong; the password never appears
    ///   in its message.
    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let parts = try PostgresURLParts(text)
        let parameters = parts.parameters
        func value(_ parameter: String, _ fromURL: String?, _ variable: String) -> String? {
            parameters[parameter] ?? fromURL ?? environment[variable].flatMap { $0.isEmpty ? nil : $0 }
        }
        let portText = value("port", parts.port, "PGPORT")
        var port = 5432
        if let portText {
            guard let number = Int(portText), (1...65_535).contains(number), portText.allSatisfy(\.isASCII) else {
                throw PostgresURLError.invalidPort(portText)
            }
            port = number
        }
        let host = value("host", parts.host, "PGHOST") ?? "/var/run/postgresql"
        guard !host.contains(",") else { throw PostgresURLError.multipleHosts(host) }
        endpoint = host.hasPrefix("/") ? .unixSocket(directory: host, port: port) : .tcp(host: host, port: port)
        user = value("user", parts.user, "PGUSER") ?? Self.loginName(environment: environment)
        password = value("password", parts.password, "PGPASSWORD")
        database = value("dbname", parts.database, "PGDATABASE") ?? user
        let mode = value("sslmode", nil, "PGSSLMODE") ?? SSLMode.prefer.rawValue
        guard let sslMode = SSLMode(rawValue: mode) else { throw PostgresURLError.invalidSSLMode(mode) }
        self.sslMode = sslMode
        sslRootCertificate = parameters["sslrootcert"]
        applicationName = parameters["application_name"]
        if let timeout = parameters["connect_timeout"] {
            guard let seconds = Int(timeout), seconds >= 0 else {
                throw PostgresURLError.invalidParameter(name: "connect_timeout", value: timeout)
            }
            connectTimeoutSeconds = seconds
        }
    }

    /// The socket file, for a Unix socket endpoint.
    public var socketPath: String? {
        guard case .unixSocket(let directory, let port) = endpoint else { return nil }
        let folder = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return "\(folder)/.s.PGSQL.\(port)"
    }

    /// The URL again, the password replaced by `***`: for messages and `runnect db`.
    public var description: String {
        var text = "postgresql://" + Self.encode(user, .userPart)
        if password != nil { text += ":***" }
        text += "@"
        var query: [String] = []
        switch endpoint {
        case .tcp(let host, let port):
            text += host.contains(":") ? "[\(host)]" : Self.encode(host, .hostPart)
            text += ":\(port)"
        case .unixSocket(let directory, let port):
            query.append("host=" + Self.encode(directory, .queryValue))
            query.append("port=\(port)")
        }
        text += "/" + Self.encode(database, .userPart)
        if sslMode != .prefer { query.append("sslmode=\(sslMode.rawValue)") }
        return query.isEmpty ? text : text + "?" + query.joined(separator: "&")
    }

    private static func encode(_ text: String, _ allowed: CharacterSet) -> String {
        text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// libpq's default user: the login name of the process's user.
    private static func loginName(environment: [String: String]) -> String {
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name {
            let login = String(cString: name)
            if !login.isEmpty { return login }
        }
        return environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "postgres"
    }
}

extension CharacterSet {
    /// What a user name or a database name may hold unencoded in the URL.
    fileprivate static let userPart = CharacterSet.urlUserAllowed.subtracting(CharacterSet(charactersIn: ":@/?#&%"))
    /// What a host name may hold unencoded.
    fileprivate static let hostPart = CharacterSet.urlHostAllowed.subtracting(CharacterSet(charactersIn: ":@/?#&%[]"))
    /// What a query value may hold unencoded (a socket folder keeps its slashes).
    fileprivate static let queryValue = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+#%"))
}
