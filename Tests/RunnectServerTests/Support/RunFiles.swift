import Foundation
import RunnectKit
import RunnectTestSupport

/// Watch files for the run and download tests, and courses drawn along them.
enum RunFiles {
    /// The same run as its watch's FIT file and as the GPX the watch's app exported.
    static let fit = SharedCorpus.url("fit/garmin_vivoactivehr_run_corenc.fit")
    static let gpx = SharedCorpus.url("gpx/garmin_vivoactivehr_run_corenc.gpx")
    /// The project's own 10 km sample run (3,425 points).
    static let banpo = PackageFolder.url("SampleTracks/banpo_hangang_night_run.gpx")

    /// Taps along a file's track, every `every`-th positioned point and the last, as the app's
    /// drawing `path` (`latitude`, `longitude`): a course drawn on the run's own way.
    static func taps(along file: URL, every: Int) throws -> [[String: Double]] {
        let activity = try ActivityReader.read(path: file.path)
        let points = activity.courseSegments.flatMap { $0 }.filter { $0.latitude.isFinite && $0.longitude.isFinite }
        var picked = stride(from: 0, to: points.count, by: every).map { points[$0] }
        if let last = points.last { picked.append(last) }
        return picked.map { ["latitude": $0.latitude, "longitude": $0.longitude] }
    }

    /// `file` gzipped (`gzip -n`, into `folder`).
    static func gzipped(_ file: URL, in folder: TemporaryFolder) throws -> Data {
        let copy = folder.path(file.lastPathComponent)
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: file.path, toPath: copy)
        let result = try ToolRun.run(["gzip", "-n", "-f", copy])
        guard result.status == 0 else { throw ToolFailure(description: "gzip: \(result.stderr)") }
        return try Data(contentsOf: URL(fileURLWithPath: copy + ".gz"))
    }
}
