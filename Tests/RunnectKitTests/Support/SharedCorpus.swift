import Foundation
import Testing
@testable import RunnectKit

/// The real-world corpus beside the repository (`../shared/tracks`), with its independent
/// reference figures. Tests that need it are disabled, with a message, where it is absent.
enum SharedCorpus {
    /// The package root, found from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let tracks: URL = {
        if let override = ProcessInfo.processInfo.environment["RUNNECT_SHARED_TRACKS"] {
            return URL(fileURLWithPath: override)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/tracks")
    }()

    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: tracks.appendingPathComponent("reference.json").path)
    }

    static let skipMessage: Comment = "../shared/tracks/reference.json not found: corpus tests skipped"

    /// reference.json: relative path → figures.
    nonisolated(unsafe) static let reference: [String: [String: Any]] = {
        guard let data = try? Data(contentsOf: tracks.appendingPathComponent("reference.json")),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Any]]
        else { return [:] }
        return object
    }()

    /// A number of reference.json exactly: `JSONSerialization` gives `NSDecimalNumber`s whose
    /// `doubleValue` is not correctly rounded on Linux, so go through their decimal text.
    static func double(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber else { return nil }
        return Double(number.description)
    }

    /// Relative paths of the reference entries of one format, sorted.
    static func files(format: String) -> [String] {
        reference.filter { $0.value["format"] as? String == format }.keys.sorted()
    }

    /// Expects `ours` to be the reference's ISO 8601 time within `toleranceSeconds`, or `nil`
    /// where the reference has none.
    /// The bounds bit for bit, or none when the reference has none.
    static func expectBounds(_ ours: Bounds?, _ reference: Any?,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard let bounds = reference as? [String: Any] else {
            #expect(ours == nil, sourceLocation: sourceLocation)
            return
        }
        let ours = try #require(ours, sourceLocation: sourceLocation)
        #expect(ours.minLatitude == double(bounds["min_lat"]), sourceLocation: sourceLocation)
        #expect(ours.maxLatitude == double(bounds["max_lat"]), sourceLocation: sourceLocation)
        #expect(ours.minLongitude == double(bounds["min_lon"]), sourceLocation: sourceLocation)
        #expect(ours.maxLongitude == double(bounds["max_lon"]), sourceLocation: sourceLocation)
    }

    static func expectTime(_ ours: Date?, _ reference: Any?, toleranceSeconds: Double,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard let text = reference as? String else {
            #expect(ours == nil, sourceLocation: sourceLocation)
            return
        }
        let expected = try #require(ISO8601Parser.parse(text), sourceLocation: sourceLocation)
        let actual = try #require(ours, sourceLocation: sourceLocation)
        #expect(abs(actual.timeIntervalSince1970 - expected.secondsSince1970) < toleranceSeconds,
                "\(actual) vs \(text)", sourceLocation: sourceLocation)
    }

    static func url(_ relativePath: String) -> URL {
        tracks.appendingPathComponent(relativePath)
    }

    /// Every file in `edge/`.
    static var edgeFiles: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: tracks.appendingPathComponent("edge").path)) ?? []
        return names.sorted().map { "edge/" + $0 }
    }
}

