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
        #expect(
            first.stdoutLines.contains(
                "Schema    version 20, migrated to it now (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20)"
            ))
        #expect(first.stdoutLines.contains("PostGIS   extension created"))
        let again = try RunnectProcess.run(["db", "init"], environment: ["RUNNECT_DB": admin])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdoutLines.contains("Schema    version 20, up to date"))
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
                "Schema    version 20 (this build: 20)",
                "Courses   0, 0 shared, by 0 user(s)",
                "Scraps    0",
            ])
        let json = try RunnectProcess.run(["db", "summary", "--json", "--db", runner])
        #expect(json.stdout.contains(#""schema_version":20"#))
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

    @Test func storeCommandsRunOnPostgres() throws {
        let cluster = try PostgresCluster.get()
        let database = try cluster.makeDatabase(prefix: "cli")
        let admin = cluster.url(database: database)
        #expect(try RunnectProcess.run(["db", "init", "--db", admin]).status == 0)
        let (minji, jisoo) = (PostgresCluster.uniqueRoleName("minji"), PostgresCluster.uniqueRoleName("jisoo"))
        for role in [minji, jisoo] {
            let added = try RunnectProcess.run(
                ["db", "add-user", role, "--password-stdin", "--db", admin], stdin: "\(role) pw\n")
            #expect(added.status == 0, "\(added.stderr)")
        }
        func runnect(_ role: String, _ arguments: String...) throws -> RunnectProcess.Result {
            let url = cluster.url(database: database, user: role, password: "\(role) pw")
            return try RunnectProcess.run(arguments + ["--db", url])
        }
        let samples = SampleTracks.folder.path
        let imported = try runnect(minji, "import", samples)
        #expect(imported.status == 0, "\(imported.stderr)")
        let again = try runnect(minji, "import", samples)
        #expect(again.status == 0 && again.stderr.contains("already"), "\(again.stdout) \(again.stderr)")

        let listed = try runnect(minji, "list", "--json")
        #expect(listed.status == 0, "\(listed.stderr)")
        let lines = listed.stdout.split(separator: "\n")
        #expect(lines.count >= 5)
        #expect(lines.allSatisfy { $0.contains(#""owner":"\#(minji)""#) })
        let first = try #require(
            try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let id = try #require(first["id"] as? Int)

        #expect(try runnect(jisoo, "show", String(id)).status == 1, "private to minji")
        #expect(try runnect(jisoo, "upload", String(id), "--title", "내 코스", "--description", "x").status == 1)
        let uploaded = try runnect(minji, "upload", String(id), "--title", "한강 야간 코스", "--description", "같이 달려요")
        #expect(uploaded.status == 0, "\(uploaded.stderr)")
        let found = try runnect(jisoo, "search", "ㅎㄱ", "--json")
        #expect(found.status == 0 && found.stdout.contains(#""id":\#(id)"#), "\(found.stdout) \(found.stderr)")
        #expect(try runnect(jisoo, "scrap", String(id)).status == 0)
        let shown = try runnect(jisoo, "show", String(id))
        #expect(shown.status == 0 && shown.stdout.contains("한강 야간 코스"), "\(shown.stdout) \(shown.stderr)")
        let scrapped = try runnect(jisoo, "list", "--scrapped", "--json")
        #expect(scrapped.stdout.contains(#""scrap_count":1"#), "\(scrapped.stdout)")
        let records = try runnect(minji, "records")
        #expect(records.status == 0, "\(records.stderr)")
        #expect(try runnect(jisoo, "list", "--user", minji).status == 1)
    }

    @Test("a server's role (add-user --server) acts for each runner with --user, each seeing only theirs")
    func aServerActsForEachRunner() throws {
        let cluster = try PostgresCluster.get()
        let database = try cluster.makeDatabase(prefix: "cli")
        let admin = cluster.url(database: database)
        #expect(try RunnectProcess.run(["db", "init", "--db", admin]).status == 0)
        let (minji, jisoo, server) = (
            PostgresCluster.uniqueRoleName("minji"), PostgresCluster.uniqueRoleName("jisoo"),
            PostgresCluster.uniqueRoleName("server")
        )
        for runner in [minji, jisoo] {
            #expect(try RunnectProcess.run(["db", "add-user", runner, "--no-password", "--db", admin]).status == 0)
        }
        let added = try RunnectProcess.run(
            ["db", "add-user", server, "--server", "--password-stdin", "--db", admin], stdin: "s3rver pw\n")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout == "created login role \(server) a server of \(database): it acts for each runner\n")

        let url = cluster.url(database: database, user: server, password: "s3rver pw")
        let drawn = try RunnectProcess.run(
            ["draw", "--db", url, "--user", minji, "--title", "민지 코스", "--points", "37.50,127.00 37.51,127.01"])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let mine = try RunnectProcess.run(["list", "--json", "--db", url, "--user", minji])
        #expect(mine.stdoutLines.count == 1 && mine.stdout.contains(#""owner":"\#(minji)""#), "\(mine.stdout)")
        let theirs = try RunnectProcess.run(["list", "--json", "--db", url, "--user", jisoo])
        #expect(theirs.status == 0 && theirs.stdout.isEmpty, "\(theirs.stdout)\(theirs.stderr)")
        // The server's role reads no table itself, and may not become a role that is no runner.
        let itself = try RunnectProcess.run(["list", "--json", "--db", url])
        #expect(itself.status == 1 && itself.stdout.isEmpty && itself.stderr.contains("permission denied"))
        let stranger = try RunnectProcess.run(["list", "--db", url, "--user", cluster.admin])
        #expect(stranger.status == 1)
        #expect(stranger.stderr.contains("--user \(cluster.admin): on PostgreSQL you act as the role you connect as"))

        // A superuser made a runner (as `db copy --existing-roles` does) is no role a server may
        // become, and `db init` takes back such a grant an earlier build made.
        let boss = PostgresCluster.uniqueRoleName("boss")
        #expect(try cluster.psql(["-d", database, "-c", "CREATE ROLE \"\(boss)\" LOGIN SUPERUSER"]).status == 0)
        let enrolled = try RunnectProcess.run(["db", "add-user", boss, "--existing", "--db", admin])
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        let granted = """
            SELECT count(*) FROM pg_auth_members a JOIN pg_roles s ON s.oid = a.member
                JOIN pg_roles r ON r.oid = a.roleid
            WHERE s.rolname = 'runnect_server' AND r.rolname IN ('\(boss)', '\(minji)')
            """
        #expect(try cluster.psql(["-d", database, "-tAc", granted]).stdout == "1\n", "minji alone")
        let asBoss = try RunnectProcess.run(["list", "--db", url, "--user", boss])
        #expect(asBoss.status == 1 && asBoss.stderr.contains("--user \(boss): on PostgreSQL"), "\(asBoss.stderr)")
        #expect(try cluster.psql(["-d", database, "-c", "GRANT \"\(boss)\" TO runnect_server"]).status == 0)
        #expect(try RunnectProcess.run(["db", "init", "--db", admin]).status == 0)
        #expect(try cluster.psql(["-d", database, "-tAc", granted]).stdout == "1\n", "taken back by db init")
        #expect(try RunnectProcess.run(["list", "--db", url, "--user", boss]).status == 1)
    }
}
