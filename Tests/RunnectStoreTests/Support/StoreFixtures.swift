import Foundation
import GRDB
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

/// Every row of every table (virtual tables through their shadow tables), as text: two dumps are equal when the database content is.
func dumpDatabase(_ store: CourseStore) throws -> [String] {
    try store.pool.read { db in
        let tables = try String.fetchAll(
            db,
            sql: """
                SELECT name FROM sqlite_master
                WHERE type = 'table' AND name NOT LIKE 'sqlite_stat%' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'
                ORDER BY name
                """)
        var lines: [String] = []
        for table in tables {
            for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier)") {
                lines.append("\(table): \(row)")
            }
        }
        return lines
    }
}

/// The number of rows in `table`.
func rowCount(_ store: CourseStore, _ table: String) throws -> Int {
    try store.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0 }
}

/// coreutils' `sha256sum`, the independent reference the store's content hashes are checked against.
enum SHA256Sum {
    static let path = ExternalTool.path("sha256sum")
    static let missing = "sha256sum (coreutils) is not on PATH: the content hashes have no independent reference"
}

extension Trait where Self == Requirement {
    /// `sha256sum` on the `PATH`: skipped where it is missing, failed under CI.
    static var sha256sum: Self { .requires(SHA256Sum.path != nil, SHA256Sum.missing) }
}

/// Hex SHA-256 of a file, by the system's `sha256sum` (an independent reference): only in a test
/// carrying `.sha256sum`.
func sha256(ofFile path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    let tool = try #require(SHA256Sum.path, "\(SHA256Sum.missing)", sourceLocation: sourceLocation)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = [path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    try? pipe.fileHandleForReading.close()
    process.waitUntilExit()
    return String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
}

struct InjectedFailure: Error, Equatable {}
