import Foundation
import RunnectKit
import RunnectStore

/// A folder of the test's own under the system's temporary folder, removed when released.
public final class TemporaryFolder: @unchecked Sendable {
    public let url: URL

    public init(_ prefix: String = "runnect-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path in the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// A fresh folder under the system's temporary directory, removed when `body` returns.
public func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// A path for a database file in a fresh temporary folder, removed (with `-wal` and `-shm`)
/// when `body` returns. Stores opened in `body` must not outlive it.
public func withTemporaryDatabase<T>(_ body: (String) async throws -> T) async throws -> T {
    try await withTemporaryDirectory { try await body($0.appendingPathComponent("courses.sqlite").path) }
}

/// A store for `user` on a fresh temporary database, and its path.
public func withTemporaryStore<T>(
    user: String = "a", _ body: (CourseStore, String) async throws -> T
) async throws -> T {
    try await withTemporaryDatabase { path in try await body(try await CourseStore(path: path, user: user), path) }
}

/// Taps around Seoul, distinct for every `seed`: a short course of `count` points.
public func taps(seed: Int, count: Int = 4) -> [Coordinate] {
    (0..<count).map { i in
        Coordinate(
            latitude: 37.5 + Double(seed) * 1e-4 + Double(i) * 1e-3,
            longitude: 127.0 + Double(i) * 1.5e-3 + Double(seed % 7) * 1e-5)
    }
}
