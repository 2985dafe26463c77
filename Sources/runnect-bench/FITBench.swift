import Foundation
import RunnectKit

/// `runnect-bench fit FILE [--repeat N]`: FIT decoding into an ``Activity`` (records, laps,
/// sessions, pauses), best of N runs, then the same plus full stats. Prints one JSON line.
/// `--repeat 1` is the cold run: the first decode of a fresh process, its memory all new.
func fitBench(_ arguments: [String]) throws {
    guard let path = arguments.first else { usage() }
    let repeats = repeatCount(arguments, default: 5)
    let bytes = try fileBytes(path)
    let timing = try ReadAndStatsTiming(repeats: repeats) {
        try FITReader().decode(from: FileByteStream(path: path))
    } activity: {
        $0.activity
    }
    let (decodeBest, statsBest) = (timing.readSeconds, timing.totalSeconds)
    let summary = timing.read.summary
    let distance = timing.stats.distanceMeters
    let megabytes = bytes / 1e6
    let records = Double(summary.recordCount)
    let name = (path as NSString).lastPathComponent
    emit([
        ("tool", "runnect"),
        (
            "work",
            "\(name): FIT decode into an Activity (\(summary.fileCount) chained files), "
                + (repeats == 1 ? "one cold run in a fresh process; " : "best of \(repeats); ")
                + String(format: "with full stats: %.0f MB/s", megabytes / statsBest)
        ),
        ("file", path), ("bytes", Int(bytes)), ("files", summary.fileCount), ("records", summary.recordCount),
        ("seconds", decodeBest), ("mb_per_s", megabytes / decodeBest), ("points_per_s", records / decodeBest),
        ("stats_seconds", statsBest), ("stats_mb_per_s", megabytes / statsBest),
        ("peak_rss_mib", peakResidentMiB()), ("distance_m", distance),
    ])
    FileHandle.standardError.write(
        Data(
            String(
                format:
                    "runnect: FIT %.1f MB, %d records in %.3f s: %.0f MB/s, %.0f records/s (with stats %.0f MB/s), peak %.1f MiB\n",
                megabytes, summary.recordCount, decodeBest, megabytes / decodeBest, records / decodeBest,
                megabytes / statsBest, peakResidentMiB()
            ).utf8))
}
