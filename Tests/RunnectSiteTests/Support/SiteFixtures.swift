import Foundation
import RunnectKit
import RunnectStore

/// A fresh folder under the system's temporary directory, removed when `body` returns.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("runnect-site-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}

/// A store for `user` on a fresh temporary database, and its path.
func withTemporaryStore<T>(user: String = "a", _ body: (CourseStore, String) throws -> T) throws -> T {
    try withTemporaryDirectory { folder in
        let path = folder.appendingPathComponent("courses.sqlite").path
        return try body(try CourseStore(path: path, user: user), path)
    }
}

/// Taps around Seoul, distinct for every `seed`: a short course of `count` points.
func taps(seed: Int, count: Int = 4) -> [Coordinate] {
    (0..<count).map { i in
        Coordinate(
            latitude: 37.5 + Double(seed) * 1e-4 + Double(i) * 1e-3,
            longitude: 127.0 + Double(i) * 1.5e-3 + Double(seed % 7) * 1e-5)
    }
}
