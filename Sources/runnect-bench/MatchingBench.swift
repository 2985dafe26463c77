import Foundation
import RunnectBenchmarkSupport

/// `runnect-bench matching [POINTS] [--courses N] [--repeat N]`: one generated run against
/// candidate courses of each kind (drawn from it, starting or finishing elsewhere, cutting it
/// short, backwards); the time per candidate course, one core.
func matchingBench(_ arguments: [String]) {
    let points = arguments.first.flatMap { Int($0) } ?? 10_000
    let courses = max(1, option("--courses", in: arguments).flatMap { Int($0) } ?? 100)
    let report = MatchingBenchmark.run(
        runPoints: points, coursesPerKind: courses, repeats: repeatCount(arguments, default: 5))
    for figures in report.kinds {
        emit([
            ("tool", "runnect"), ("work", "course-match"), ("kind", figures.kind.rawValue),
            ("run_points", report.runPoints), ("index_ms", report.indexMilliseconds), ("courses", figures.courses),
            ("accepted", figures.accepted), ("mean_taps", figures.meanTaps),
            ("us_per_course", figures.microsecondsPerCourse), ("peak_rss_mib", peakResidentMiB()),
        ])
    }
    FileHandle.standardError.write(Data((report.text + "\n").utf8))
}
