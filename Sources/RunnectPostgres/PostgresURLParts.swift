import Foundation

/// The parts of a connection URL as written, percent-decoded, before defaults: what
/// ``PostgresURL`` is made from.
struct PostgresURLParts: Equatable {
    var user: String?
    var password: String?
    var host: String?
    var port: String?
    var database: String?
    var parameters: [String: String] = [:]

    /// The query parameters understood, as libpq names them.
    static let knownParameters: Set<String> = [
        "host", "port", "user", "password", "dbname", "sslmode", "sslrootcert", "application_name",
        "connect_timeout",
    ]

    init(_ text: String) throws {
        guard let scheme = PostgresURL.schemes.first(where: { text.lowercased().hasPrefix($0) }) else {
            throw PostgresURLError.notPostgresURL
        }
        var rest = Substring(text.dropFirst(scheme.count))
        if let question = rest.firstIndex(of: "?") {
            try readParameters(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        var authority = rest
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            let path = rest[rest.index(after: slash)...]
            if !path.isEmpty { database = try Self.decode(path, part: "database name") }
        }
        // The last `@`: a password holding an unencoded `@` still reads as meant.
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                user = try Self.decode(userInfo[..<colon], part: "user name")
                password = try Self.decode(userInfo[userInfo.index(after: colon)...], part: "password")
            } else {
                user = try Self.decode(userInfo, part: "user name")
            }
            if user?.isEmpty == true { user = nil }
        }
        try readHostAndPort(authority)
    }

    /// `host`, `host:port`, `[v6]`, `[v6]:port`, `:port`, or a socket folder percent-encoded.
    private mutating func readHostAndPort(_ authority: Substring) throws {
        guard !authority.isEmpty else { return }
        guard !authority.contains(",") else {
            throw PostgresURLError.multipleHosts(String(authority))
        }
        var hostText = authority
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw PostgresURLError.invalidHost(String(authority))
            }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                port = String(after.dropFirst())
            } else if !after.isEmpty {
                throw PostgresURLError.invalidHost(String(authority))
            }
            return
        }
        if let colon = authority.lastIndex(of: ":") {
            port = String(authority[authority.index(after: colon)...])
            hostText = authority[..<colon]
        }
        if !hostText.isEmpty { host = try Self.decode(hostText, part: "host") }
    }

    private mutating func readParameters(_ query: Substring) throws {
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            guard let equals = pair.firstIndex(of: "=") else {
                throw PostgresURLError.invalidParameter(name: String(pair), value: "")
            }
            let name = try Self.decode(pair[..<equals], part: "parameter name")
            guard Self.knownParameters.contains(name) else { throw PostgresURLError.unknownParameter(name) }
            guard parameters[name] == nil else { throw PostgresURLError.repeatedParameter(name) }
            parameters[name] = try Self.decode(pair[pair.index(after: equals)...], part: name)
        }
    }

    /// Percent-decodes one part; `+` stays a plus, as for libpq.
    static func decode(_ text: Substring, part: String) throws -> String {
        guard let decoded = String(text).removingPercentEncoding else {
            throw PostgresURLError.invalidPercentEncoding(part: part)
        }
        return decoded
    }
}
