/// A connection URL that cannot be read, with what to write instead.
///
/// No message repeats the URL's password.
public enum PostgresURLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text does not start with `postgresql://` or `postgres://`.
    case notPostgresURL
    /// A `%` not followed by two hexadecimal digits (or bytes that are not UTF-8) in `part`.
    case invalidPercentEncoding(part: String)
    /// The port is not a number from 1 to 65535.
    case invalidPort(String)
    /// Several hosts (`host1,host2`): a store connects to one server.
    case multipleHosts(String)
    /// A host in brackets that is not closed, or text after the bracket that is not a port.
    case invalidHost(String)
    /// A query parameter this reader does not know.
    case unknownParameter(String)
    /// The same query parameter twice.
    case repeatedParameter(String)
    /// A parameter without `=`, or a value out of range.
    case invalidParameter(name: String, value: String)
    /// An `sslmode` that is not one of ``SSLMode``'s.
    case invalidSSLMode(String)

    public var description: String {
        switch self {
        case .notPostgresURL:
            return "not a PostgreSQL URL: write postgresql://user@host:port/database"
        case .invalidPercentEncoding(let part):
            return "the \(part) in the PostgreSQL URL has a bad %-escape; write a % as %25"
        case .invalidPort(let port):
            return "port \"\(port)\" in the PostgreSQL URL is not a number from 1 to 65535"
        case .multipleHosts(let hosts):
            return "the PostgreSQL URL names several hosts (\(hosts)); name one"
        case .invalidHost(let host):
            return "host \"\(host)\" in the PostgreSQL URL is malformed; write an IPv6 address as [::1]:5432"
        case .unknownParameter(let name):
            let known = PostgresURLParts.knownParameters.sorted().joined(separator: ", ")
            return "unknown parameter \"\(name)\" in the PostgreSQL URL; the known ones are \(known)"
        case .repeatedParameter(let name):
            return "parameter \"\(name)\" is given twice in the PostgreSQL URL; give it once"
        case .invalidParameter(let name, let value):
            if value.isEmpty { return "parameter \"\(name)\" in the PostgreSQL URL needs a value: \(name)=…" }
            return "\(name)=\(value) in the PostgreSQL URL is not valid; give a whole number of seconds"
        case .invalidSSLMode(let mode):
            let modes = SSLMode.allCases.map(\.rawValue).joined(separator: ", ")
            return "sslmode=\(mode) is not supported; use one of \(modes)"
        }
    }
}
