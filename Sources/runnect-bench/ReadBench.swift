import Foundation
import RunnectKit

/// `runnect-bench gpx FILE` and `runnect-bench points FILE`: reading any file the way the CLI
/// does (``ActivityReader``, the format detected from the content) plus full stats with splits,
/// best of `repeats` runs in this process. Prints one JSON line tagged with `work`.
func readBench(path: String, repeats: Int, work: String) throws {
    let bytes = try fileBytes(path)
    let timing = try ReadAndStatsTiming(repeats: repeats) {
        try ActivityReader.read(path: path)
    } activity: {
        $0
    }
    let (best, parseBest) = (timing.totalSeconds, timing.readSeconds)
    let points = timing.stats.points
    let distance = timing.stats.distanceMeters
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
