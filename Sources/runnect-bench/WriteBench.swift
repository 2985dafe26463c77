import Foundation
import RunnectKit

/// `runnect-bench write FILE OUTDIR --format gpx|tcx|fit [--kind course|run] [--repeat N]`: the
/// file read once (not timed), then written as GPX, TCX or FIT into `OUTDIR/written.<format>`
/// through `OutputFile` (streamed, renamed into place), best of N runs (default 5). Prints one
/// JSON line; MB/s counts the bytes written, points/s the points of the course.
func writeBench(_ arguments: [String]) throws {
    guard arguments.count >= 2, let format = option("--format", in: arguments) else { usage() }
    let path = arguments[0]
    let kind = ExportKind(rawValue: option("--kind", in: arguments) ?? "run") ?? .run
    let repeats = repeatCount(arguments, default: 5)
    let activity = try ActivityReader.read(path: path)
    let points = activity.courseSegments.reduce(0) { $0 + $1.count }
    let target = URL(fileURLWithPath: arguments[1]).appendingPathComponent("written.\(format)").path
    let options = ExportOptions(kind: kind)

    let writer: any CourseFileWriter
    switch format {
    case "gpx": writer = GPXWriter(options: options)
    case "tcx": writer = TCXWriter(options: options)
    case "fit": writer = FITWriter(options: options)
    default: usage()
    }
    var best = Double.infinity
    var bytes = 0
    for _ in 0..<repeats {
        let start = now()
        try OutputFile.write(to: target) { file in
            var sink = CountingSink(file)
            try writer.write(activity, to: &sink)
            bytes = sink.count
        }
        best = min(best, now() - start)
    }
    let megabytes = Double(bytes) / 1e6
    let name = (path as NSString).lastPathComponent
    emit([
        ("tool", "runnect"), ("work", "write-\(format)"), ("kind", kind.rawValue), ("file", path),
        ("output", target), ("bytes", bytes), ("points", points), ("seconds", best), ("repeat", repeats),
        ("mb_per_s", megabytes / best), ("points_per_s", Double(points) / best), ("peak_rss_mib", peakResidentMiB()),
    ])
    let figures = String(
        format: "%.1f MB in %.3f s: %.0f MB/s, %.0f points/s", megabytes, best, megabytes / best, Double(points) / best)
    FileHandle.standardError.write(
        Data(
            "runnect: \(name) (\(points) points) written as \(format.uppercased()) (\(kind.rawValue)): \(figures)\n"
                .utf8))
}
