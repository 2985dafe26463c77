import RunnectKit

/// What `runnect db init`, `db add-user`, `db optimize` and `db check` refuse, with what to do instead.
public enum PostgresAdministrationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The role connected may not create roles (neither superuser nor `CREATEROLE`).
    case notAdministrator(role: String)
    /// The server has no PostGIS to create the extension from.
    case postgisNotInstalled
    /// The database has no Runnect schema yet.
    case notInitialized(database: String)
    /// The database's schema is older than this build's: an administrator must migrate it.
    case olderSchema(found: Int, supported: Int)
    /// A role name that cannot be a runner's; `reason` says why.
    case invalidRoleName(String, reason: String)
    /// `add-user` for a role that exists, without `--existing`.
    case roleExists(String)
    /// `add-user --existing` for a role that does not exist.
    case roleMissing(String)
    /// `db init`'s migration to schema version 15 found rows (`ids`, the first 10) that fail a
    /// constraint: values no store writes.
    case rowsFailChecks(table: String, constraint: String, ids: [Int64])
    /// A copy's owners naming existing roles that are not runners, without `--existing-roles`.
    case existingRolesNotRunners([String])
    /// A copy's owners that differ from their trimmed, NFC form.
    case unnormalizedOwners([String])
    /// `db optimize` or `db check` by a role that does not own the store's tables (`owner` does).
    case notTablesOwner(role: String, owner: String)

    public var description: String {
        switch self {
        case .notAdministrator(let role):
            return "role \(role) cannot create roles; connect as a superuser or a role with CREATEROLE"
        case .postgisNotInstalled:
            return "the server has no PostGIS extension; install it (Debian: postgresql-15-postgis-3) and run again"
        case .notInitialized(let database):
            return "database \(database) has no Runnect schema; run `runnect db init --db URL` as an administrator"
        case .olderSchema(let found, let supported):
            return "the database uses schema version \(found) and this runnect needs \(supported); "
                + "ask an administrator to run `runnect db init`"
        case .invalidRoleName(let name, let reason):
            return "\"\(name)\" cannot be a runner's role name: \(reason)"
        case .roleExists(let name):
            return "role \(name) exists already; pass --existing to make it a runner without changing it"
        case .roleMissing(let name):
            return "role \(name) does not exist; leave out --existing to create it"
        case .rowsFailChecks(let table, let constraint, let ids):
            return "\(table) rows \(ids.map(String.init).joined(separator: ", ")) hold values no store writes "
                + "(check \(constraint)); mend or delete them, then run `runnect db init` again"
        case .existingRolesNotRunners(let names):
            return "the source's owners \(Self.listed(names)) name existing roles that are not runners; "
                + "pass --existing-roles to make them runners, or rename the owners in the source"
        case .unnormalizedOwners(let names):
            return "the source's owners \(Self.listed(names)) differ from their trimmed, NFC form "
                + "(a lookalike of another name); rename them in the source"
        case .notTablesOwner(let role, let owner):
            return "role \(role) does not own the store's tables; run it as \(owner), who ran `runnect db init`, "
                + "or as a superuser"
        }
    }

    /// Names quoted, control characters escaped, comma-separated: `"postgres", "alice "`.
    private static func listed(_ names: [String]) -> String {
        names.map { "\"\(ControlCharacters.escaped($0))\"" }.joined(separator: ", ")
    }
}
