import ArgumentParser
import Foundation
import RunnectBackends
import RunnectKit
import RunnectStore

#if PostgreSQL
    import RunnectPostgres
#endif

/// `--db`, `--user` and `--json`, taken by every command that uses the course store.
struct StoreOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The course database: a SQLite file, or postgresql://… (default: $RUNNECT_DB, else $XDG_DATA_HOME/runnect/courses.sqlite). A file named must exist; import and draw make one in an existing folder.",
            valueName: "path|url"))
    var db: String?

    @Option(help: ArgumentHelp("Who is acting (default: $RUNNECT_USER, else the login name).", valueName: "name"))
    var user: String?

    @Flag(help: "One JSON object per course per line.")
    var json = false

    /// What `--db` names, else `$RUNNECT_DB`, else the default file.
    var location: String { db ?? CourseStore.defaultPath() }

    /// Whether the store was named (`--db` or `$RUNNECT_DB`) rather than the default one.
    var isNamed: Bool { db != nil || !(ProcessInfo.processInfo.environment["RUNNECT_DB"] ?? "").isEmpty }

    /// What opening a SQLite store may make: a named path is checked, not trusted (reading never
    /// makes a store; writing makes one in an existing folder), while the default store and its
    /// folder are made on first use.
    func creation(writing: Bool) -> StoreCreation {
        guard isNamed else { return .withFolders }
        return writing ? .inExistingFolder : .never
    }

    /// Opens the store and runs `body` with it. What the store refuses (not the owner, not
    /// shared, a newer schema…) is printed as one line and exits 1; a named SQLite store that is
    /// not there, 66. `writing`: a command that adds courses (`import`, `draw`), which may make
    /// a named store in an existing folder.
    func withStore<T>(writing: Bool = false, _ body: (CourseStore) async throws -> T) async throws -> T {
        try await StoreRefusal.reported {
            let store = try await Self.open(location, user: user, creating: creation(writing: writing), role: "--db")
            store.warnings.onWarning { Diagnostics.warning($0.description) }
            return try await body(store)
        }
    }

    /// Opens the stores at these locations (SQLite paths or PostgreSQL URLs) and runs `body`
    /// with them, in order; what a store refuses is one line and exit 1, as for ``withStore(writing:_:)``.
    /// The first is read (it must exist: exit 66); the others may be made in an existing folder.
    static func withStores<T>(at locations: [String], _ body: ([CourseStore]) async throws -> T) async throws -> T {
        try await StoreRefusal.reported {
            var stores: [CourseStore] = []
            for (index, location) in locations.enumerated() {
                stores.append(
                    try await open(
                        location, user: nil, creating: index == 0 ? .never : .inExistingFolder,
                        role: index == 0 ? "FROM" : "TO"))
            }
            return try await body(stores)
        }
    }

    /// `CourseStore.open(_:user:creating:)`, a URL that cannot be read a usage error naming `role`.
    static func open(
        _ location: String, user: String?, creating: StoreCreation, role: String,
        durability: StoreDurability = .processCrash, reconnectSeconds: Double? = nil
    ) async throws -> CourseStore {
        do {
            return try await CourseStore.open(
                location, user: user, creating: creating, durability: durability, reconnectSeconds: reconnectSeconds)
        } catch let error as BackendNotBuilt {
            throw StoreRefusal.report(error) ?? ExitCode.failure
        } catch {
            #if PostgreSQL
                if let error = error as? PostgresURLError { throw ValidationError("\(role): \(error)") }
            #endif
            throw error
        }
    }
}

/// Prints courses as text (distances and paces in `unit`) or NDJSON (metric).
enum CourseOutput {
    static func print(_ courses: [Course], json: Bool, unit: DistanceUnit = .kilometers) throws {
        if json {
            for course in courses { Swift.print(try CourseReport(course).jsonLine()) }
        } else if courses.isEmpty {
            Swift.print("no courses")
        } else {
            for course in courses { Swift.print(CourseText.line(course, unit: unit)) }
        }
    }

    /// Courses of a near-me search: each line or object with the distance from the point.
    static func print(_ found: [NearbyCourse], json: Bool, unit: DistanceUnit = .kilometers) throws {
        if json {
            for entry in found {
                var report = CourseReport(entry.course)
                report.awayMeters = entry.distanceMeters
                Swift.print(try report.jsonLine())
            }
        } else if found.isEmpty {
            Swift.print("no courses")
        } else {
            for entry in found {
                Swift.print(CourseText.line(entry.course, awayMeters: entry.distanceMeters, unit: unit))
            }
        }
    }
}
