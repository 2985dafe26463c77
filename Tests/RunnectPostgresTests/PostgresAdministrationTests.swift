import Foundation
import RunnectStore
import RunnectTestSupport
import Testing

@testable import RunnectPostgres

@Suite(.postgres) struct PostgresAdministrationTests {
    @Test func aRunnerLogsInWithThePasswordGivenAndNotWithAnother() async throws {
        let database = try ClusterDatabase()
        let admin = try database.adminURL
        _ = try await PostgresAdministration.initialize(admin)
        let name = PostgresCluster.uniqueRoleName("민지")
        let password = "s3cret pass: 비밀 @%'\""
        let report = try await PostgresAdministration.addRunner(
            try RoleName(name), password: password, existing: false, at: admin)
        #expect(report == .init(role: name, database: database.name, created: true, setPassword: true))

        // The server checks the SCRAM verifier made here: a login with the password works.
        let summary = try await PostgresAdministration.summary(try database.url(role: name, password: password))
        #expect(summary.courses == 0)
        let asRunner = try database.cluster.psql(
            "SELECT current_user, pg_has_role(current_user, 'runnect_runner', 'MEMBER')", database: database.name,
            role: name, password: password)
        #expect(asRunner.stdout.trimmed == "\(name)|t")
        let wrong = try database.cluster.psql("SELECT 1", database: database.name, role: name, password: "nope")
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("password authentication failed"))
    }

    @Test func existingRolesAreNotChangedUnlessAsked() async throws {
        let database = try ClusterDatabase()
        let admin = try database.adminURL
        _ = try await PostgresAdministration.initialize(admin)
        let name = PostgresCluster.uniqueRoleName("haneul")
        try database.adminSQL("CREATE ROLE \(name) LOGIN PASSWORD 'before'")
        let role = try RoleName(name)
        await #expect(throws: PostgresAdministrationError.roleExists(name)) {
            try await PostgresAdministration.addRunner(role, password: "after", existing: false, at: admin)
        }
        let report = try await PostgresAdministration.addRunner(role, password: nil, existing: true, at: admin)
        #expect(!report.created && !report.setPassword)
        // Its password is the one it had.
        let login = try database.cluster.psql("SELECT 1", database: database.name, role: name, password: "before")
        #expect(login.status == 0)
        let missing = try RoleName(PostgresCluster.uniqueRoleName("nobody"))
        await #expect(throws: PostgresAdministrationError.roleMissing(missing.name)) {
            try await PostgresAdministration.addRunner(missing, password: nil, existing: true, at: admin)
        }
    }

    @Test func aRunnerIsNoAdministrator() async throws {
        let database = try ClusterDatabase()
        let admin = try database.adminURL
        _ = try await PostgresAdministration.initialize(admin)
        let name = PostgresCluster.uniqueRoleName("jisoo")
        _ = try await PostgresAdministration.addRunner(try RoleName(name), password: "pw", existing: false, at: admin)
        let runner = try database.url(role: name, password: "pw")
        await #expect(throws: PostgresAdministrationError.notAdministrator(role: name)) {
            try await PostgresAdministration.initialize(runner)
        }
        await #expect(throws: PostgresAdministrationError.notAdministrator(role: name)) {
            try await PostgresAdministration.addRunner(
                try RoleName("x_\(name)"), password: "pw", existing: false, at: runner)
        }
    }

    @Test func aRunnerOfOneDatabaseCannotConnectToAnother() async throws {
        let club = try ClusterDatabase()
        let other = try ClusterDatabase()
        _ = try await PostgresAdministration.initialize(try club.adminURL)
        _ = try await PostgresAdministration.initialize(try other.adminURL)
        let name = PostgresCluster.uniqueRoleName("minho")
        _ = try await PostgresAdministration.addRunner(
            try RoleName(name), password: "pw", existing: false, at: try club.adminURL)
        #expect(try club.cluster.psql("SELECT 1", database: club.name, role: name, password: "pw").status == 0)
        let refused = try other.cluster.psql("SELECT 1", database: other.name, role: name, password: "pw")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("permission denied for database"))
    }

    @Test func addingARunnerNeedsAnInitialisedStore() async throws {
        let database = try ClusterDatabase()
        await #expect(throws: PostgresAdministrationError.notInitialized(database: database.name)) {
            try await PostgresAdministration.addRunner(
                try RoleName("someone"), password: nil, existing: false, at: try database.adminURL)
        }
    }
}
