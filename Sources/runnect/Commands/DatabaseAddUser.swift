import ArgumentParser
import Foundation

#if PostgreSQL
    import RunnectPostgres
#endif

extension Runnect {
    /// `runnect db add-user NAME --db URL`: a runner's login role, as an administrator.
    struct DatabaseAddUser: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-user",
            abstract: "Create a runner's login role on a PostgreSQL store (as an administrator role).",
            discussion: """
                The password is asked on the terminal (twice, not shown), or read as the first \
                line of standard input with --password-stdin; it is sent to the server as a \
                SCRAM-SHA-256 verifier, never as itself. --no-password makes a role that logs in \
                only where the server trusts it (peer or certificate authentication). --existing \
                makes an existing role a runner, its password and attributes unchanged. --server \
                makes the role a server's instead (a member of runnect_server, as `runnect serve` \
                connects): it acts for each runner in turn (SET LOCAL ROLE), holding none of their \
                rows itself.
                """)

        @Argument(help: "The role's name: the runner's user name on this store.") var name: String

        @Flag(help: "Read the password from the first line of standard input.")
        var passwordStdin = false

        @Flag(help: "Create the role without a password.")
        var noPassword = false

        @Flag(help: "Make an existing role a runner; it is not created or changed.")
        var existing = false

        @Flag(help: "A server's role (runnect_server), which acts for each runner, not a runner.")
        var server = false

        @OptionGroup var database: PostgresOptions

        func validate() throws {
            let choices = [passwordStdin, noPassword, existing].filter { $0 }.count
            guard choices <= 1 else {
                throw ValidationError("--password-stdin, --no-password and --existing exclude each other.")
            }
        }

        func run() async throws {
            #if PostgreSQL
                let url = try database.url()
                let role = try await StoreRefusal.reported { try RoleName(name) }
                let password =
                    try existing || noPassword
                    ? nil : PasswordInput.read(for: role.name, fromStandardInput: passwordStdin)
                let report = try await StoreRefusal.reported {
                    try await PostgresAdministration.addRunner(
                        role, password: password, existing: existing, server: server, at: url)
                }
                if server {
                    let made = report.created ? "created login role" : "made existing role"
                    print("\(made) \(report.role) a server of \(report.database): it acts for each runner")
                } else if report.created {
                    let secret = report.setPassword ? "with a password" : "without a password"
                    print("created login role \(report.role): a runner of \(report.database), \(secret)")
                } else {
                    print("made existing role \(report.role) a runner of \(report.database), unchanged otherwise")
                }
            #else
                _ = try database.location()
            #endif
        }
    }
}
