import ArgumentParser
import RunnectKit

/// The tool's exit codes, after BSD's sysexits (ArgumentParser already uses 64 for usage errors).
enum ExitStatus {
    /// An input was read but is not a valid course (malformed XML, a latitude of 91°, …).
    static let dataError = ExitCode(65)
    /// An input could not be opened (missing file, permission, a directory).
    static let noInput = ExitCode(66)
    /// An output could not be written (`runnect index`: a file in the way that runnect did not
    /// write, no permission, disk full).
    static let cannotCreate = ExitCode(73)
    /// What the command needs is not in this build (PostgreSQL, in a SQLite-only build).
    static let unavailable = ExitCode(69)

    /// The code for a failure to read one input.
    static func code(for error: Error) -> ExitCode {
        if case ReadError.io = error { return noInput }
        return dataError
    }
}
