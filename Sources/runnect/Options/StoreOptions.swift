import ArgumentParser
import Foundation
import RunnectPostgres
import RunnectStore

/// `--db`, `--user` and `--json`, taken by every command that uses the course store.
struct StoreOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The course database: a SQLite file, or postgresql://… (default: $RUNNECT_DB, else $XDG_DATA_HOME/runnect/courses.sqlite).",
            valueName: "path|url"))
    var db: String?

    @Option(help: ArgumentHelp("Who is acting (default: $RUNNECT_USER, else the login name).", valueName: "name"))
    var user: String?

    @Flag(help: "One JSON object per course per line.")
    var json = false

    /// What `--db` names, else `$RUNNECT_DB`, else the default file.
    var location: String { db ?? CourseStore.defaultPath() }

    /// The PostgreSQL URL when the location is one, else `nil` (a SQLite file).
    ///
    /// On PostgreSQL the user is the role that connects: `--user` is refused unless it names it.
    func postgresURL() throws -> PostgresURL? {
        guard PostgresURL.isPostgresURL(location) else { return nil }
        let url: PostgresURL
        do {
            url = try PostgresURL(location)
        } catch let error as PostgresURLError {
            throw ValidationError("--db: \(error)")
        }
        if let user, user != url.user {
            Diagnostics.error(
                "--user \(user): on PostgreSQL you act as the role you connect as (\(url.user)); "
                    + "leave out --user or connect as \(user)")
            throw ExitCode.failure
        }
        return url
    }

    /// Opens the store and runs `body` with it. What the store refuses (not the owner, not
    /// shared, a newer schema…) is printed as one line and exits 1.
    func withStore<T>(_ body: (CourseStore) throws -> T) throws -> T {
        try StoreRefusal.reported {
            let store: CourseStore
            if let url = try postgresURL() {
                store = try CourseStore(postgres: url)
                // The role the server says (`current_user`), which a URL's user name may not spell.
                if let user, user != store.user {
                    Diagnostics.error(
                        "--user \(user): on PostgreSQL you act as the role you connect as (\(store.user)); "
                            + "leave out --user or connect as \(user)")
                    throw ExitCode.failure
                }
            } else {
                store = try CourseStore(path: location, user: user ?? CourseStore.defaultUser())
            }
            store.warnings.onWarning { Diagnostics.warning($0.description) }
            return try body(store)
        }
    }

    /// What a `db` subcommand does on either database: `postgres` with the URL, which connects
    /// on its own (as an administrator, say), or `sqlite` with the opened store; a refusal of
    /// either is one line and exit 1.
    func onDatabase<T>(
        postgres: (PostgresURL) async throws -> T, sqlite: (CourseStore) throws -> T
    ) async throws -> T {
        guard let url = try postgresURL() else { return try withStore(sqlite) }
        return try await StoreRefusal.reportedAsync { try await postgres(url) }
    }

    /// Opens the stores at these locations (SQLite paths or PostgreSQL URLs) and runs `body`
    /// with them, in order; what a store refuses is one line and exit 1, as for ``withStore(_:)``.
    static func withStores<T>(at locations: [String], _ body: ([CourseStore]) throws -> T) throws -> T {
        try StoreRefusal.reported {
            let stores = try locations.map { location -> CourseStore in
                guard PostgresURL.isPostgresURL(location) else {
                    return try CourseStore(path: location, user: CourseStore.defaultUser())
                }
                do {
                    return try CourseStore(postgres: PostgresURL(location))
                } catch let error as PostgresURLError {
                    throw ValidationError("\(location == locations.first ? "FROM" : "TO"): \(error)")
                }
            }
            return try body(stores)
        }
    }
}

/// Prints courses as text or NDJSON.
enum CourseOutput {
    static func print(_ courses: [Course], json: Bool) throws {
        if json {
            for course in courses { Swift.print(try CourseReport(course).jsonLine()) }
        } else if courses.isEmpty {
            Swift.print("no courses")
        } else {
            for course in courses { Swift.print(CourseText.line(course)) }
        }
    }

    /// Courses of a near-me search: each line or object with the distance from the point.
    static func print(_ found: [NearbyCourse], json: Bool) throws {
        if json {
            for entry in found {
                var report = CourseReport(entry.course)
                report.awayMeters = entry.distanceMeters
                Swift.print(try report.jsonLine())
            }
        } else if found.isEmpty {
            Swift.print("no courses")
        } else {
            for entry in found { Swift.print(CourseText.line(entry.course, awayMeters: entry.distanceMeters)) }
        }
    }
}
