import Foundation
import RunnectKit

/// Course-matching benchmark: one generated run (10,000 fixes by default) and candidate courses
/// of several kinds near it, each asked of one ``RunnectKit/CourseMatcher`` with
/// ``RunnectKit/CourseMatcher/match(course:)-([Coordinate])``, as the store will for the
/// courses whose bounds meet a run's. Deterministic for a seed; runs on the calling thread only,
/// so the figures are one core's.
public enum MatchingBenchmark {
    /// The kinds of candidate course.
    public enum Kind: String, CaseIterable, Sendable {
        /// Drawn from 5 km (10 km) of the run: taps at its turns and every 300 m. Accepted.
        case drawn5k = "drawn 5 km"
        case drawn10k = "drawn 10 km"
        /// 5 km of the run's own points (a course recorded, not drawn). Accepted.
        case recorded5k = "recorded 5 km"
        /// Wandering 7.5 km from a random point of the run's bounds: rejected at the start.
        case startElsewhere = "start elsewhere"
        /// Starting on the run, then wandering 7.5 km off it: rejected at the finish.
        case finishElsewhere = "finish elsewhere"
        /// Drawn from 5 km of the run, its middle three fifths moved 150 m aside: rejected on
        /// coverage.
        case shortcut = "shortcut"
        /// Drawn from 5 km of the run, reversed: rejected, finish before start.
        case backwards = "backwards"
    }

    /// Figures for one kind of course.
    public struct KindFigures: Sendable {
        public var kind: Kind
        public var courses: Int
        /// How many of them the run follows.
        public var accepted: Int
        /// Mean taps per course.
        public var meanTaps: Double
        /// Time per course, microseconds (best of the repeats, divided by the courses).
        public var microsecondsPerCourse: Double
    }

    /// Measured figures of one run.
    public struct Report: Sendable {
        public var runPoints: Int
        public var runMeters: Double
        /// Time to build the matcher (index the run), milliseconds, best of the repeats.
        public var indexMilliseconds: Double
        public var kinds: [KindFigures]

        /// One line per figure, for people.
        public var text: String {
            var lines = [
                String(
                    format: "matching bench: run of %d points (%.1f km), indexed in %.2f ms", runPoints,
                    runMeters / 1000, indexMilliseconds),
                "  kind               courses  accepted   taps   µs/course",
            ]
            for figures in kinds {
                lines.append(
                    "  " + figures.kind.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0)
                        + String(
                            format: " %7d %9d %6.0f %11.1f", figures.courses, figures.accepted, figures.meanTaps,
                            figures.microsecondsPerCourse))
            }
            return lines.joined(separator: "\n")
        }
    }

    /// Generates the workload and times the matcher on it.
    /// - Parameters:
    ///   - runPoints: Fixes of the run (one a second at 2.5 m/s).
    ///   - coursesPerKind: Candidate courses of each ``Kind``.
    ///   - repeats: Timed passes over all courses; the fastest counts.
    ///   - seed: Seeds the generator.
    public static func run(runPoints: Int = 10_000, coursesPerKind: Int = 100, repeats: Int = 5, seed: UInt64 = 2026)
        -> Report
    {
        let workload = workload(runPoints: runPoints, perKind: coursesPerKind, seed: seed)
        let activity = Activity(format: .gpx11, tracks: [Track(segments: [TrackSegment(points: workload.run)])])
        let clock = ContinuousClock()
        var matcher = CourseMatcher(run: activity)
        var indexSeconds = Double.infinity
        for _ in 0..<max(repeats, 1) {
            let start = clock.now
            matcher = CourseMatcher(run: activity)
            indexSeconds = min(indexSeconds, seconds(clock.now - start))
        }

        var kinds: [KindFigures] = []
        for (kind, paths) in workload.courses {
            var accepted = 0
            var best = Double.infinity
            for _ in 0..<max(repeats, 1) {
                accepted = 0
                let start = clock.now
                for path in paths where matcher.match(course: path) != nil { accepted += 1 }
                best = min(best, seconds(clock.now - start))
            }
            kinds.append(
                KindFigures(
                    kind: kind, courses: paths.count, accepted: accepted,
                    meanTaps: Double(paths.reduce(0) { $0 + $1.count }) / Double(max(paths.count, 1)),
                    microsecondsPerCourse: best / Double(max(paths.count, 1)) * 1e6))
        }
        return Report(
            runPoints: runPoints, runMeters: activity.stats().distanceMeters, indexMilliseconds: indexSeconds * 1000,
            kinds: kinds)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}
