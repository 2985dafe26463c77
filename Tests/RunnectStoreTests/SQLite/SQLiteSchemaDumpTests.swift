import RunnectTestSupport
import Testing

/// `Sources/RunnectStore/SQLite/Schema/current.sql` is the schema a new store's migrations make.
@Suite(.requires(SchemaDump.hasSQLite3, "no sqlite3 shell (scripts/setup.sh --test installs it)"))
struct SQLiteSchemaDumpTests {
    @Test func currentSchemaIsANewStoresSchema() async throws {
        let dump = try await withTemporaryStore { _, path in try SchemaDump.run(["sqlite", path]) }
        try SchemaDump.expectCurrent(dump, file: "Sources/RunnectStore/SQLite/Schema/current.sql")
    }
}
