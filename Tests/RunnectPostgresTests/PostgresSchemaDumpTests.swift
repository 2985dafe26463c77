import RunnectPostgres
import RunnectTestSupport
import Testing

/// `Sources/RunnectPostgres/Schema/current.sql` is the schema `runnect db init` makes.
@Suite(.postgres) struct PostgresSchemaDumpTests {
    @Test func currentSchemaIsANewDatabasesSchema() async throws {
        let database = try ClusterDatabase()
        _ = try await PostgresAdministration.initialize(try database.adminURL)
        let dump = try SchemaDump.run(
            ["postgres", database.cluster.url(database: database.name)],
            environment: ["RUNNECT_PG_BIN": database.cluster.binDirectory])
        try SchemaDump.expectCurrent(dump, file: "Sources/RunnectPostgres/Schema/current.sql")
    }
}
