import Foundation
import GRDB
import RunnectKit
import RunnectTestSupport
import Testing

@testable import RunnectStore

/// The project's own sample courses (`SampleTracks/`), always present.
enum SampleTracks {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SampleTracks")

    /// Every sample file (GPX and tapped courses), sorted.
    static let files: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { ["gpx", "json", "geojson"].contains(($0 as NSString).pathExtension) }.sorted()
    }()

    static let gpxFiles: [String] = files.filter { $0.hasSuffix(".gpx") }

    static func path(_ name: String) -> String {
        folder.appendingPathComponent(name).path
    }
}

/// A fresh folder under the system's temporary directory, removed when `body` returns.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("runnect-store-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}

/// A path for a database file in a fresh temporary folder, removed (with `-wal` and `-shm`)
/// when `body` returns. Stores opened in `body` must not outlive it.
func withTemporaryDatabase<T>(_ body: (String) throws -> T) throws -> T {
    try withTemporaryDirectory { try body($0.appendingPathComponent("courses.sqlite").path) }
}

/// A store for `user` on a fresh temporary database.
func withTemporaryStore<T>(user: String = "a", _ body: (CourseStore, String) throws -> T) throws -> T {
    try withTemporaryDatabase { path in try body(try CourseStore(path: path, user: user), path) }
}

/// Taps around Seoul, distinct for every `seed`: a short course of `count` points.
func taps(seed: Int, count: Int = 4) -> [Coordinate] {
    (0..<count).map { i in
        Coordinate(
            latitude: 37.5 + Double(seed) * 1e-4 + Double(i) * 1e-3,
            longitude: 127.0 + Double(i) * 1.5e-3 + Double(seed % 7) * 1e-5)
    }
}

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

/// Hex SHA-256 of a file, by the system's `sha256sum` (an independent reference); where it is
/// missing, by the store's own hashing, said on standard error (a failure under CI).
func sha256(ofFile path: String) throws -> String {
    let found = ExternalTool.path("sha256sum")
    guard Requirement.check(found != nil, "sha256sum (coreutils) is not on PATH: hashes are checked against our own"),
        let tool = found
    else {
        return ContentHash.of(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = [path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
}

struct InjectedFailure: Error, Equatable {}
