import RunnectStore
import RunnectTestSupport
import Testing

/// The backends the store and search tests run on: each such test takes
/// `@Test(arguments: StoreKind.allCases)` and makes its stores with ``withStores(_:users:sourceLocation:_:)``,
/// so that SQLite and PostgreSQL are held to the same expectations by the same code.
///
/// Tests that reach SQLite's own machinery (its pool, `SQLiteTransaction`, the file, its
/// migrations and query plans) stay SQLite-only, and say so.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// Whether a database of this kind can be made here. PostgreSQL needs the tests' cluster: where
    /// it cannot start, the caller skips its body, said on standard error, except under CI, where an
    /// issue is recorded, as the `.postgres` trait does for a whole test (a trait cannot be given
    /// to one argument of a parameterised test).
    func isAvailable(sourceLocation: SourceLocation) -> Bool {
        switch self {
        case .sqlite: true
        case .postgres:
            Requirement.check(PostgresCluster.isAvailable, PostgresCluster.missing, sourceLocation: sourceLocation)
        }
    }
}
