import RunnectKit

/// A PostgreSQL role name that a runner's login role may take, and its quoted form for DDL.
///
/// Role names cannot be bound as parameters in `CREATE ROLE` or `GRANT`, so they are checked
/// here and always written through ``quoted``, which doubles any `"` inside: a name is one
/// identifier whatever it holds.
public struct RoleName: Sendable, Hashable, CustomStringConvertible {
    /// The name, as the role is called (and as `current_user` reads).
    public let name: String

    /// The longest name PostgreSQL keeps, in UTF-8 bytes (`NAMEDATALEN` − 1).
    public static let maximumByteCount = 63

    /// Names PostgreSQL keeps for itself, and the runners' group role.
    static let reserved: Set<String> = [
        "public", "none", "current_user", "current_role", "session_user", "user", "all", PostgresSchema.runnerGroup,
    ]

    /// Checks `name`.
    ///
    /// - Throws: ``PostgresAdministrationError/invalidRoleName(_:reason:)`` for an empty name, one
    ///   over 63 bytes, one holding a control character, starting with `pg_`, or reserved.
    public init(_ name: String) throws {
        func refuse(_ reason: String) -> PostgresAdministrationError {
            .invalidRoleName(ControlCharacters.escaped(name), reason: reason)
        }
        guard !name.isEmpty, !name.allSatisfy(\.isWhitespace) else { throw refuse("it is blank") }
        guard name.utf8.count <= Self.maximumByteCount else {
            throw refuse("it has \(name.utf8.count) bytes, over \(Self.maximumByteCount)")
        }
        if let (scalar, position) = ControlCharacters.first(in: name) {
            throw refuse("it holds a control character (\(ControlCharacters.name(scalar)) at character \(position))")
        }
        guard !name.lowercased().hasPrefix("pg_") else { throw refuse("names starting with pg_ are PostgreSQL's") }
        guard !Self.reserved.contains(name.lowercased()) else { throw refuse("the name is reserved") }
        self.name = name
    }

    /// The name as a quoted SQL identifier: `"minji"`, `"a""b"` for `a"b`.
    public var quoted: String { Self.quote(name) }

    public var description: String { name }

    /// Any identifier quoted for SQL, `"` doubled.
    static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
