import RunnectStore
import RunnectTestSupport
import Testing

/// The backends the store and search tests run on: each such test takes
/// `@Test(arguments: StoreKind.available)` and makes its stores with ``withStores(_:users:sourceLocation:_:)``,
/// so that SQLite and PostgreSQL are held to the same expectations by the same code.
///
/// Tests that reach SQLite's own machinery (its pool, `SQLiteTransaction`, the file, its
/// migrations and query plans) stay SQLite-only, and say so.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// The kinds a parameterised store test runs on here: SQLite always; PostgreSQL where the
    /// tests' cluster can be had, and always under CI, where a missing cluster fails each
    /// PostgreSQL case (``withStores(_:users:sourceLocation:_:)``).
    ///
    /// A trait cannot be given to one argument of a parameterised test, and a test case cannot be
    /// skipped on its own (`Test.cancel()`, new in Swift 6.3, cancels a case, but `swift test`
    /// 6.3.1 prints that case as passed), so the PostgreSQL cases are left out of the arguments
    /// instead, and every suite of such tests has a test carrying `.postgresCases` that is
    /// reported skipped, with the reason, where they were left out. Swift Testing evaluates a
    /// test's arguments only when it runs the test: listing or filtering the tests starts no cluster.
    static var available: [StoreKind] {
        Requirement.isCI || PostgresCluster.isAvailable ? allCases : [.sqlite]
    }

    /// Records an issue and throws where a database of this kind cannot be had: a PostgreSQL
    /// case without a cluster runs only under CI (``available``), where that is a failure.
    func require(sourceLocation: SourceLocation) throws {
        guard self == .postgres else { return }
        try #require(
            PostgresCluster.isAvailable, Comment(rawValue: PostgresCluster.missing), sourceLocation: sourceLocation)
    }
}

extension Trait where Self == Requirement {
    /// For the test that stands for the PostgreSQL cases of its suite's parameterised tests
    /// (``StoreKind/available``): skipped where they were left out for want of a cluster, failed
    /// under CI.
    static var postgresCases: Self {
        Requirement {
            (
                PostgresCluster.isAvailable,
                "\(PostgresCluster.missing): this suite's parameterised tests ran on SQLite only"
            )
        }
    }
}
