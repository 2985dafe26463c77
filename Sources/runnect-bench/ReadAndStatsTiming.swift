import RunnectKit

/// The best of `repeats` runs of reading something and then computing its full stats (splits
/// included), the two phases timed apart: what the `gpx`, `points` and `fit` benchmarks measure.
struct ReadAndStatsTiming<Read> {
    /// The fastest read, seconds.
    var readSeconds = Double.infinity
    /// The fastest read plus stats, seconds.
    var totalSeconds = Double.infinity
    /// What the last run read, and its stats.
    var read: Read
    var stats: ActivityStats

    /// Runs `read`, then the stats of the activity `activity` takes from it, `repeats` times.
    init(repeats: Int, read: () throws -> Read, activity: (Read) -> Activity) rethrows {
        var last: (Read, ActivityStats)?
        for _ in 0..<max(1, repeats) {
            let start = now()
            let value = try read()
            let readEnd = now()
            let stats = activity(value).stats(options: StatsOptions(includeSplits: true))
            let end = now()
            readSeconds = min(readSeconds, readEnd - start)
            totalSeconds = min(totalSeconds, end - start)
            last = (value, stats)
        }
        (self.read, self.stats) = last!
    }
}
