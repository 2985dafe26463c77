import ArgumentParser
import RunnectPostgres
import RunnectStore

/// `--db URL` of the commands that only work on PostgreSQL (`db init`, `db add-user`).
struct PostgresOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The PostgreSQL database, postgresql://user@host:port/database?sslmode=… (default: $RUNNECT_DB).",
            valueName: "url"))
    var db: String?

    /// The URL read; a path or a bad URL is a usage error.
    func url() throws -> PostgresURL {
        let text = db ?? CourseStore.defaultPath()
        guard PostgresURL.isPostgresURL(text) else {
            throw ValidationError("This command needs a PostgreSQL database: --db postgresql://user@host/database.")
        }
        do {
            return try PostgresURL(text)
        } catch let error as PostgresURLError {
            throw ValidationError("--db: \(error)")
        }
    }
}

/// Runs PostgreSQL work for a command: what the store or the server refuses is one line on
/// standard error and exit code 1, as for the SQLite store.
enum PostgresCommand {
    static func run<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as StoreError {
            Diagnostics.error("\(error)")
            throw ExitCode.failure
        } catch let error as PostgresAdministrationError {
            Diagnostics.error("\(error)")
            throw ExitCode.failure
        }
    }

    /// The same for work that does not connect (checking a role name).
    static func checking<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PostgresAdministrationError {
            Diagnostics.error("\(error)")
            throw ExitCode.failure
        }
    }
}
