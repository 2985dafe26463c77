import Foundation
import RunnectBackends
import RunnectPostgres
import RunnectStore
import RunnectTestSupport
import Testing

@testable import RunnectServer

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

extension ServerStoreKind {
    /// A test server on a new store of this kind (its images in the store's temporary folder,
    /// no limit on writes), with a runner signed up for each of `names` (made unique on
    /// PostgreSQL, whose roles outlive a database): `body` gets the server's address, a client
    /// signed in as each runner, in order, and the server's images folder.
    func withServer<T: Sendable>(
        runners names: [String], _ body: @Sendable (URL, [AppClient], URL) async throws -> T
    ) async throws -> T {
        try await withStore { store, folder in
            let images = folder.appendingPathComponent("images")
            let configuration = ServerConfiguration(
                tokenSecret: TestServer.secret, imagesFolder: images.path, writesPerMinute: 0)
            var pairs: [TokenPair] = []
            for name in names {
                let unique = self == .postgres ? PostgresCluster.uniqueRoleName(name) : name
                pairs.append(try await TokenPair.issue(forRunnerNamed: unique, secret: TestServer.secret, store: store))
            }
            let signedIn = pairs
            return try await TestServer.with(store: store, configuration: configuration) { base in
                try await body(
                    base,
                    signedIn.map { AppClient(base: base).signedIn(access: $0.accessToken, refresh: $0.refreshToken) },
                    images)
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
