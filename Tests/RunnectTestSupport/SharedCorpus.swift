import Foundation
import Testing

/// The real-world corpus beside the repository (`../shared/tracks`, or `$RUNNECT_SHARED_TRACKS`),
/// with its independent reference figures (`reference.json`, made by `make_reference.py`). Tests
/// that need it carry the ``Requirement`` `.sharedCorpus`: skipped with a message where it is
/// absent, failed under CI.
public enum SharedCorpus {
    public static let tracks: URL = {
        if let override = ProcessInfo.processInfo.environment["RUNNECT_SHARED_TRACKS"] {
            return URL(fileURLWithPath: override)
        }
        return PackageFolder.root.deletingLastPathComponent().appendingPathComponent("shared/tracks")
    }()

    /// The GPX, TCX and Garmin extension XML schemas beside the tracks (`../shared/schemas`, with
    /// `SOURCES.md`), or `$RUNNECT_SHARED_SCHEMAS`.
    public static let schemas: URL = {
        if let override = ProcessInfo.processInfo.environment["RUNNECT_SHARED_SCHEMAS"] {
            return URL(fileURLWithPath: override)
        }
        return tracks.deletingLastPathComponent().appendingPathComponent("schemas")
    }()

    /// Whether the schemas the course-file tests validate against are there.
    public static var schemasAreAvailable: Bool {
        ["gpx-1.1.xsd", "TrackPointExtensionv1.xsd", "tcx-v2.xsd", "ActivityExtensionv2.xsd"].allSatisfy {
            FileManager.default.fileExists(atPath: schemas.appendingPathComponent($0).path)
        }
    }

    public static var schemasMissing: String {
        "\(schemas.path) lacks gpx-1.1.xsd, TrackPointExtensionv1.xsd, tcx-v2.xsd or ActivityExtensionv2.xsd "
            + "(set RUNNECT_SHARED_SCHEMAS to the shared schemas folder)"
    }

    public static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: tracks.appendingPathComponent("reference.json").path)
    }

    public static var missing: String {
        "\(tracks.path)/reference.json not found: the shared corpus is absent (set RUNNECT_SHARED_TRACKS to its tracks folder)"
    }

    /// reference.json: relative path → figures.
    nonisolated(unsafe) public static let reference: [String: [String: Any]] = {
        guard let data = try? Data(contentsOf: tracks.appendingPathComponent("reference.json")),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Any]]
        else { return [:] }
        return object
    }()

    /// A number of reference.json exactly: `JSONSerialization` gives `NSDecimalNumber`s whose
    /// `doubleValue` is not correctly rounded on Linux, so go through their decimal text.
    public static func double(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber else { return nil }
        return Double(number.description)
    }

    /// The figure `key` of the reference entry `file` (a relative path such as
    /// `fit/garmin_fr945_run_sloatsburg.fit`), as a number; records an issue where there is none.
    public static func figure(
        _ file: String, _ key: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Double {
        let entry = try #require(reference[file], "no \(file) in reference.json", sourceLocation: sourceLocation)
        return try #require(
            double(entry[key]), "no number \(key) for \(file) in reference.json",
            sourceLocation: sourceLocation)
    }

    /// The figure `key` of the first session of the FIT reference entry `file`.
    public static func sessionFigure(
        _ file: String, _ key: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Double {
        let entry = try #require(reference[file], "no \(file) in reference.json", sourceLocation: sourceLocation)
        let sessions = try #require(entry["sessions"] as? [[String: Any]], sourceLocation: sourceLocation)
        return try #require(
            sessions.first.flatMap { double($0[key]) }, "no session \(key) for \(file)",
            sourceLocation: sourceLocation)
    }

    /// Relative paths of the reference entries of one format, sorted.
    public static func files(format: String) -> [String] {
        reference.filter { $0.value["format"] as? String == format }.keys.sorted()
    }

    public static func url(_ relativePath: String) -> URL {
        tracks.appendingPathComponent(relativePath)
    }

    /// Every file in `edge/`.
    public static var edgeFiles: [String] {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: tracks.appendingPathComponent("edge").path)) ?? []
        return names.sorted().map { "edge/" + $0 }
    }
}

extension Trait where Self == Requirement {
    /// The shared corpus: skipped where it is absent, failed under CI.
    public static var sharedCorpus: Self { .requires(SharedCorpus.isAvailable, SharedCorpus.missing) }
}
