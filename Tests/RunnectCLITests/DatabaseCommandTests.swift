import Foundation
import RunnectTestSupport
import Testing

/// `runnect db init`, `db add-user` and `db` on PostgreSQL, through the built binary.
@Suite(.postgres) struct DatabaseCommandTests {
    @Test func initTwiceThenAddUserThenTheSummary() throws {
        let cluster = try PostgresCluster.get()
        let database = try cluster.makeDatabase(prefix: "cli")
        let admin = cluster.url(database: database)

        let first = try RunnectProcess.run(["db", "init", "--db", admin])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdoutLines.contains("Schema    version 1, migrated to it now (1)"))
        #expect(first.stdoutLines.contains("PostGIS   extension created"))
        let again = try RunnectProcess.run(["db", "init"], environment: ["RUNNECT_DB": admin])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdoutLines.contains("Schema    version 1, up to date"))
        #expect(again.stdoutLines.contains("PostGIS   extension present"))

        let name = PostgresCluster.uniqueRoleName("minji")
        let added = try RunnectProcess.run(
            ["db", "add-user", name, "--password-stdin", "--db", admin], stdin: "correct horse\n")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "created login role \(name): a runner of \(database), with a password\n")
        let twice = try RunnectProcess.run(
            ["db", "add-user", name, "--password-stdin", "--db", admin], stdin: "another\n")
        #expect(twice.status == 1)
        #expect(twice.stderr.contains("role \(name) exists already; pass --existing"))

        let runner = cluster.url(database: database, user: name, password: "correct horse")
        let summary = try RunnectProcess.run(["db", "--db", runner])
        #expect(summary.status == 0, "\(summary.stderr)")
        #expect(
            summary.stdoutLines == [
                "Database  postgresql://\(name):***@127.0.0.1:\(cluster.port)/\(database)?sslmode=disable",
                "Schema    version 1 (this build: 1)",
                "Courses   0, 0 shared, by 0 user(s)",
                "Scraps    0",
            ])
        let json = try RunnectProcess.run(["db", "summary", "--json", "--db", runner])
        #expect(json.stdout.contains(#""schema_version":1"#))
        #expect(!json.stdout.contains("correct horse"))
    }

    @Test func onPostgresTheUserIsTheRoleConnected() throws {
        let cluster = try PostgresCluster.get()
        let database = try cluster.makeDatabase(prefix: "cli")
        let admin = cluster.url(database: database)
        #expect(try RunnectProcess.run(["db", "init", "--db", admin]).status == 0)
        let other = try RunnectProcess.run(["db", "--db", admin, "--user", "someone"])
        #expect(other.status == 1)
        #expect(
            other.stderr.contains("--user someone: on PostgreSQL you act as the role you connect as (\(cluster.admin))")
        )
        let same = try RunnectProcess.run(["db", "--db", admin, "--user", cluster.admin])
        #expect(same.status == 0, "\(same.stderr)")
    }

    @Test func storeCommandsSayTheyDoNotRunOnPostgresYet() throws {
        let cluster = try PostgresCluster.get()
        let url = cluster.url(database: "postgres")
        let result = try RunnectProcess.run(["list", "--db", url])
        #expect(result.status == 1)
        #expect(result.stderr.contains("this command does not run on PostgreSQL yet"))
    }
}
