import Foundation
import RunnectTestSupport
import Testing

/// `runnect db init --server-role`, `runnect serve token` and `runnect serve` on PostgreSQL,
/// through the built binary: the server's role is no superuser and cannot create roles, and
/// still signs runners up (through the store's own function) and serves them.
@Suite(.postgres) struct ServePostgresCommandTests {
    static let secret = ["RUNNECT_TOKEN_SECRET": String(repeating: "p", count: 40)]

    @Test func initWithAServerRoleThenTokensAndTheAPI() async throws {
        let cluster = try PostgresCluster.get()
        let database = try cluster.makeDatabase(prefix: "serve")
        let admin = cluster.url(database: database)
        let role = PostgresCluster.uniqueRoleName("club_server")
        let initialized = try RunnectProcess.run(
            ["db", "init", "--server-role", role, "--password-stdin", "--db", admin], stdin: "server pw\n")
        #expect(initialized.status == 0, "\(initialized.stderr)")
        #expect(initialized.stdoutLines.contains("Server    created login role \(role): it acts for each runner"))
        let attributes = try cluster.psql([
            "-d", admin, "-c",
            "SELECT rolsuper, rolcreaterole, rolbypassrls, pg_has_role('\(role)', 'runnect_server', 'MEMBER') FROM pg_roles WHERE rolname = '\(role)'",
        ])
        #expect(attributes.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "f|f|f|t")

        let server = cluster.url(database: database, user: role, password: "server pw")
        let images = try TemporaryFolder("runnect-serve-images")
        let runner = PostgresCluster.uniqueRoleName("minji")
        let token = try RunnectProcess.run(["serve", "token", runner, "--db", server], environment: Self.secret)
        #expect(token.status == 0, "\(token.stderr)")
        let pair = try #require(try JSONSerialization.jsonObject(with: Data(token.stdout.utf8)) as? [String: String])
        // The runner's role was made, without a login, for the server to act as.
        let made = try cluster.psql([
            "-d", admin, "-c",
            "SELECT rolcanlogin, pg_has_role('\(role)', '\(runner)', 'MEMBER') FROM pg_roles WHERE rolname = '\(runner)'",
        ])
        #expect(made.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "f|t")

        let serve = try ServeProcess(
            ["--db", server, "--port", "0", "--images", images.path("images")], environment: Self.secret)
        let me = try await serve.request(
            "GET", "/api/user",
            headers: ["accessToken": pair["accessToken"] ?? "", "refreshToken": pair["refreshToken"] ?? ""])
        #expect(me.status == 200, "\(String(decoding: me.body, as: UTF8.self))")
        let feed = try await serve.request(
            "GET", "/api/public-course?pageNo=1", headers: ["accessToken": "visitor", "refreshToken": "visitor"])
        #expect(feed.status == 200, "\(String(decoding: feed.body, as: UTF8.self))")
        #expect(serve.stop().status == 0)

        // Without --images a PostgreSQL store is refused: the images need a folder.
        let refused = try RunnectProcess.run(["serve", "--db", server, "--port", "0"], environment: Self.secret)
        #expect(refused.status == 64 && refused.stderr.contains("--images"), "\(refused.stderr)")
    }
}
