import Foundation
import Testing

/// `scripts/dump-schema.sh`: a database's schema as `Schema/current.sql` shows it, for the tests
/// that find the file stale.
public enum SchemaDump {
    public static let script = PackageFolder.url("scripts/dump-schema.sh").path

    /// Whether the `sqlite3` shell is there (`scripts/setup.sh --test` installs it).
    public static let hasSQLite3: Bool = {
        let which = Process()
        which.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        which.arguments = ["sh", "-c", "command -v sqlite3"]
        which.standardOutput = FileHandle.nullDevice
        guard (try? which.run()) != nil else { return false }
        which.waitUntilExit()
        return which.terminationStatus == 0
    }()

    /// What the script prints for `arguments` (`sqlite FILE`, `postgres URL`).
    public static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read before waiting: a dump larger than the pipe's buffer would block the script.
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        try? output.fileHandleForReading.close()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        try? errors.fileHandleForReading.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw DumpError(description: "dump-schema.sh failed: " + String(decoding: complaint, as: UTF8.self))
        }
        return String(decoding: printed, as: UTF8.self)
    }

    /// Expects `dump` to be the package's file `current` (`…/Schema/current.sql`), naming the
    /// script that writes it again, and the first line that differs.
    public static func expectCurrent(
        _ dump: String, file current: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let stored = try String(contentsOf: PackageFolder.url(current), encoding: .utf8)
        guard stored != dump else { return }
        let new = dump.split(separator: "\n", omittingEmptySubsequences: false)
        let old = stored.split(separator: "\n", omittingEmptySubsequences: false)
        let line =
            zip(new, old).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(new.count, old.count)
        let now = line < new.count ? String(new[line]) : "(the end)"
        Issue.record(
            """
            \(current) is stale: run scripts/dump-schema.sh and commit it with the migration that \
            changed the schema (line \(line + 1) is now \(now))
            """, sourceLocation: sourceLocation)
    }

    public struct DumpError: Error, CustomStringConvertible {
        public let description: String
    }
}
