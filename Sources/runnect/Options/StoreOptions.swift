import ArgumentParser
import Foundation
import RunnectStore

/// `--db`, `--user` and `--json`, taken by every command that uses the course store.
struct StoreOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The course database (default: $RUNNECT_DB, else $XDG_DATA_HOME/runnect/courses.sqlite).",
            valueName: "path"))
    var db: String?

    @Option(help: ArgumentHelp("Who is acting (default: $RUNNECT_USER, else the login name).", valueName: "name"))
    var user: String?

    @Flag(help: "One JSON object per course per line.")
    var json = false

    /// Opens the store and runs `body` with it. What the store refuses (not the owner, not
    /// shared, a newer schema…) is printed as one line and exits 1.
    func withStore<T>(_ body: (CourseStore) throws -> T) throws -> T {
        do {
            let store = try CourseStore(path: db ?? CourseStore.defaultPath(), user: user ?? CourseStore.defaultUser())
            return try body(store)
        } catch let error as StoreError {
            Diagnostics.error("\(error)")
            throw ExitCode.failure
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
}
