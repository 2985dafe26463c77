import ArgumentParser
import RunnectBackends
import RunnectStore

#if PostgreSQL
    import RunnectPostgres
#endif

/// `--db URL` of the commands that only work on PostgreSQL (`db init`, `db add-user`).
struct PostgresOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The PostgreSQL database, postgresql://user@host:port/database?sslmode=… (default: $RUNNECT_DB).",
            valueName: "url"))
    var db: String?

    /// The URL given (or `$RUNNECT_DB`); a path is a usage error, and so is any URL in a build
    /// without PostgreSQL.
    func location() throws -> String {
        let text = db ?? CourseStore.defaultPath()
        guard CourseStore.isServerLocation(text) else {
            throw ValidationError("This command needs a PostgreSQL database: --db postgresql://user@host/database.")
        }
        guard CourseStore.hasPostgreSQL else { throw StoreRefusal.report(BackendNotBuilt.postgreSQL) ?? .failure }
        return text
    }

    #if PostgreSQL
        /// The URL read; a path or a bad URL is a usage error.
        func url() throws -> PostgresURL {
            do {
                return try PostgresURL(location())
            } catch let error as PostgresURLError {
                throw ValidationError("--db: \(error)")
            }
        }
    #endif
}

/// What the store or the server refuses (not the owner, a newer schema, a role that exists…),
/// as one line on standard error and exit code 1, whichever database a command works on.
enum StoreRefusal {
    /// Prints `error` and returns its exit code when it is a refusal (1; 66 for a named store
    /// that is not there, 65 for input that is no course); `nil` for any other error.
    static func report(_ error: any Error) -> ExitCode? {
        switch error {
        case let error as StoreError:
            Diagnostics.error("\(error)")
            return code(for: error)
        case let error as BackendNotBuilt:
            Diagnostics.error("\(error)")
            return ExitStatus.unavailable
        #if PostgreSQL
            case let error as PostgresAdministrationError:
                Diagnostics.error("\(error)")
                return .failure
        #endif
        default: return nil
        }
    }

    /// The exit code of a store error: 66 (EX_NOINPUT) for a store path that is not there, 65
    /// (EX_DATAERR) for points that make no course, 1 for what the store refuses.
    static func code(for error: StoreError) -> ExitCode {
        switch error {
        case .noStore, .noFolder: return ExitStatus.noInput
        case .tooFewPositions: return ExitStatus.dataError
        default: return .failure
        }
    }

    /// Runs `body`; a refusal is reported (``report(_:)``) and ends the command with its exit code.
    static func reported<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw report(error) ?? error
        }
    }
}
