import Foundation
import RunnectKit

/// `runnect-bench gpx FILE` and `runnect-bench points FILE`: reading any file the way the CLI
/// does (``ActivityReader``, the format detected from the content) plus full stats with splits,
/// best of `repeats` runs in this process. Prints one JSON line tagged with `work`.
func readBench(path: String, repeats: Int, work: String) throws {
    let bytes = try fileBytes(path)
    var best = Double.infinity
    var parseBest = Double.infinity
    var points = 0
    var distance = 0.0
    for _ in 0..<repeats {
        let start = now()
        let activity = try ActivityReader.read(path: path)
        let parsed = now()
        let stats = activity.stats(options: StatsOptions(includeSplits: true))
        let end = now()
        best = min(best, end - start)
        parseBest = min(parseBest, parsed - start)
        points = stats.points
        distance = stats.distanceMeters
    }
    let megabytes = bytes / 1e6
    emit([
        ("tool", "runnect"), ("work", work), ("file", path), ("bytes", Int(bytes)),
        ("points", points), ("seconds", best), ("parse_seconds", parseBest),
        ("mb_per_s", megabytes / best), ("parse_mb_per_s", megabytes / parseBest),
        ("points_per_s", Double(points) / best), ("peak_rss_mib", peakResidentMiB()),
        ("distance_m", distance),
    ])
    FileHandle.standardError.write(
        Data(
            String(
                format: "runnect: %.1f MB in %.3f s (parse %.3f s): %.0f MB/s, %.0f points/s, peak %.1f MiB\n",
                megabytes, best, parseBest, megabytes / best, Double(points) / best, peakResidentMiB()
            ).utf8))
}
