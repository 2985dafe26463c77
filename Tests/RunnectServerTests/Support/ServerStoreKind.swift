import Foundation
import RunnectBackends
import RunnectPostgres
import RunnectStore
import RunnectTestSupport
import Testing

/// The stores a server test runs on: a SQLite file, and a PostgreSQL database that the server
/// reaches as a server's role (`runnect db add-user NAME --server`), acting as each runner.
enum ServerStoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// SQLite always; PostgreSQL where the tests' cluster can be had, and always under CI.
    static var available: [ServerStoreKind] {
        Requirement.isCI || PostgresCluster.isAvailable ? allCases : [.sqlite]
    }

    /// Runs `body` with a new store of this kind and a temporary folder (for images), removed after.
    func withStore<T: Sendable>(_ body: @Sendable (CourseStore, URL) async throws -> T) async throws -> T {
        try await withTemporaryDirectory { folder in
            switch self {
            case .sqlite:
                let store = try await CourseStore.open(folder.appendingPathComponent("courses.sqlite").path)
                return try await body(store, folder)
            case .postgres:
                try #require(PostgresCluster.isAvailable, Comment(rawValue: PostgresCluster.missing))
                let database = try await PostgresStoreDatabase()
                let server = try await database.addServer("serve")
                let store = try await CourseStore(postgres: server.url)
                return try await body(store, folder)
            }
        }
    }
}

extension Trait where Self == Requirement {
    /// For the test that stands for the PostgreSQL cases of its suite's parameterised tests:
    /// skipped where they were left out for want of a cluster, failed under CI.
    static var postgresCases: Self {
        Requirement {
            (
                PostgresCluster.isAvailable,
                "\(PostgresCluster.missing): this suite's parameterised tests ran on SQLite only"
            )
        }
    }
}
