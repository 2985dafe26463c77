import Foundation

/// The package's own checkout, found from this file's path: the one place the tests learn where
/// the sources, the scripts, the fixtures and the sample courses are.
public enum PackageFolder {
    /// The package root (the folder of `Package.swift`).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A file or folder of the package, such as `Tests/Fixtures/store-v1/courses.sqlite`.
    public static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }
}

/// The project's own sample courses (`SampleTracks/`), always present.
public enum SampleTracks {
    public static let folder = PackageFolder.url("SampleTracks")

    /// Every sample file (GPX and tapped courses), sorted.
    public static let files: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { ["gpx", "json", "geojson"].contains(($0 as NSString).pathExtension) }.sorted()
    }()

    public static let gpxFiles: [String] = files.filter { $0.hasSuffix(".gpx") }

    public static func path(_ name: String) -> String {
        folder.appendingPathComponent(name).path
    }
}
