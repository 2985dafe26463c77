import Foundation
import GRDB
import RunnectPostgres
import RunnectTestSupport
import Testing

@testable import RunnectStore

/// A fresh database of one ``StoreKind`` and a store for each runner a test asked for, with
/// what a test reads beneath the stores (every row, row counts) and the few changes no store
/// makes (dates, broken bytes), each in its backend's SQL.
///
/// On PostgreSQL each runner is a login role made as `runnect db add-user` makes it, its name
/// made unique on the cluster: compare owners with a store's `user`, never a literal name. The
/// database is read and changed beneath the stores as the superuser, whom row-level security
/// does not hold.
final class StoreFixture: Sendable {
    let kind: StoreKind
    /// The stores, one for each user name given, in that order.
    let stores: [CourseStore]
    private let backing: Backing

    private enum Backing: Sendable {
        case sqlite(path: String)
        case postgres(PostgresStoreDatabase)
    }

    private init(kind: StoreKind, stores: [CourseStore], backing: Backing) {
        self.kind = kind
        self.stores = stores
        self.backing = backing
    }

    /// The fixture over a SQLite file at `path`.
    static func sqlite(path: String, users: [String]) async throws -> StoreFixture {
        StoreFixture(
            kind: .sqlite, stores: try await users.asyncMap { try await CourseStore(path: path, user: $0) },
            backing: .sqlite(path: path))
    }

    /// The fixture over a new PostgreSQL database of the tests' cluster.
    static func postgres(users: [String]) async throws -> StoreFixture {
        let database = try await PostgresStoreDatabase()
        var stores: [CourseStore] = []
        for user in users {
            await stores.append(try CourseStore(postgres: try await database.addRunner(user).url))
        }
        return StoreFixture(kind: .postgres, stores: stores, backing: .postgres(database))
    }

    // MARK: - Reading beneath the stores

    /// Every row of every table (SQLite's virtual tables through their shadow tables), as text:
    /// two dumps are equal when the database content is.
    func dump() throws -> [String] {
        switch backing {
        case .sqlite:
            return try dumpDatabase(stores[0])
        case .postgres(let postgres):
            let tables = try lines(
                of: postgres,
                """
                SELECT table_name FROM information_schema.tables
                WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'spatial_ref_sys'
                ORDER BY table_name
                """)
            return try tables.flatMap { table in
                try lines(of: postgres, "SELECT '\(table): ' || r::text FROM \(table) r ORDER BY r::text")
            }
        }
    }

    /// The number of rows in `table`.
    func rowCount(_ table: String) throws -> Int {
        switch backing {
        case .sqlite:
            return try RunnectStoreTests.rowCount(stores[0], table)
        case .postgres(let postgres):
            return Int(try lines(of: postgres, "SELECT count(*) FROM \(table)").first ?? "") ?? -1
        }
    }

    // MARK: - Changing beneath the stores

    /// Sets the creation date of courses `ids`, which orders lists (not the search index, which
    /// keeps the order it indexed).
    func setCreatedAt(_ date: Date, ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        let list = ids.map(String.init).joined(separator: ", ")
        switch backing {
        case .sqlite:
            try stores[0].pool.write {
                try $0.execute(sql: "UPDATE course SET created_at = ? WHERE id IN (\(list))", arguments: [date])
            }
        case .postgres(let postgres):
            let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
            try execute(
                on: postgres,
                """
                UPDATE course SET created_at = to_timestamp(\(milliseconds) / 1000.0) WHERE id IN (\(list));
                UPDATE course_search SET created_ms = \(milliseconds) WHERE course_id IN (\(list))
                """)
        }
    }

    /// Replaces course `id`'s stored activity with a byte that is none.
    func breakGeometry(id: Int64) throws {
        try setGeometry(Data([0]), id: id)
    }

    /// Replaces course `id`'s stored activity with `bytes`, as a runner with SQL may (PostgreSQL)
    /// or anyone who can write the file (SQLite).
    func setGeometry(_ bytes: Data, id: Int64) throws {
        switch backing {
        case .sqlite:
            try stores[0].pool.write {
                try $0.execute(sql: "UPDATE course SET geometry = ? WHERE id = ?", arguments: [bytes, id])
            }
        case .postgres(let postgres):
            let hex = bytes.map { String(format: "%02x", $0) }.joined()
            try execute(on: postgres, #"UPDATE course SET geometry = '\x\#(hex)'::bytea WHERE id = \#(id)"#)
        }
    }

    /// Replaces course `id`'s stored figures with `json`, as anyone who can write a SQLite file may;
    /// on PostgreSQL past the database's own checks, which a runner cannot pass.
    func setStats(_ json: String, id: Int64) throws {
        switch backing {
        case .sqlite:
            try stores[0].pool.write {
                try $0.execute(sql: "UPDATE course SET stats = ? WHERE id = ?", arguments: [json, id])
            }
        case .postgres(let postgres):
            // Past the checks of schema 15, which refuse such figures from a runner (DerivedColumnsTests):
            // as a database restored without its triggers would hold them.
            let quoted = json.replacingOccurrences(of: "'", with: "''")
            try execute(
                on: postgres,
                """
                SET session_replication_role = replica;
                UPDATE course SET stats = '\(quoted)'::json WHERE id = \(id)
                """)
        }
    }

    /// Runs `sqlite` on the SQLite file, or `postgres` as the superuser, whom neither row-level
    /// security nor column grants hold: changes no store makes, as damage would.
    func change(sqlite: String, postgres: String) throws {
        switch backing {
        case .sqlite:
            try stores[0].pool.write { try $0.execute(sql: sqlite) }
        case .postgres(let database):
            try execute(on: database, postgres)
        }
    }

    /// A store of whoever owns the tables: the first store on SQLite (a file has no owners), the
    /// administrator who ran `db init` on PostgreSQL.
    func ownersStore() async throws -> CourseStore {
        switch backing {
        case .sqlite: stores[0]
        case .postgres(let database): try await CourseStore(postgres: try database.database.adminURL)
        }
    }

    // MARK: - psql

    private func lines(of postgres: PostgresStoreDatabase, _ sql: String) throws -> [String] {
        try execute(on: postgres, sql).split(separator: "\n").map(String.init)
    }

    @discardableResult
    private func execute(on postgres: PostgresStoreDatabase, _ sql: String) throws -> String {
        let result = try postgres.database.adminSQL(sql)
        guard result.status == 0 else { throw StoreError.database("psql: \(result.stderr)") }
        return result.stdout
    }
}

/// Runs `body` with a ``StoreFixture`` of `kind` holding a store for each of `users` (in their
/// order), on a database made for it and, on SQLite, removed after.
///
/// Where `kind` cannot be had (no PostgreSQL cluster: only under CI, see ``StoreKind/available``)
/// an issue is recorded and the call throws: the test fails, never passes without its body.
func withStores(
    _ kind: StoreKind, users: [String] = ["a"], sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (StoreFixture) async throws -> Void
) async throws {
    try kind.require(sourceLocation: sourceLocation)
    switch kind {
    case .sqlite:
        try await withTemporaryDatabase { path in
            try await body(try await StoreFixture.sqlite(path: path, users: users))
        }
    case .postgres:
        try await body(try await StoreFixture.postgres(users: users))
    }
}
