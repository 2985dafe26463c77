import Foundation
import RunnectKit
import RunnectStore

/// Matching runs against a full store: a database of generated courses (100,000 by default, all
/// in Seoul, as dense as a city full of courses gets), the courses of ``MatchingBenchmark``'s
/// workload drawn on a generated run and shared by another runner, and that run (10,000 fixes)
/// imported as a record again and again, as `runnect import` stores one: drafted (stats,
/// geometry, the run indexed), then stored (the R*Tree's candidates, their ends checked, the
/// paths left aligned, the record written). Deterministic for a seed; one core.
public enum StoreMatchingBenchmark {
    /// Measured figures.
    public struct Report: Sendable {
        /// Generated courses, and the courses drawn on the run beside them.
        public var generatedCourses: Int
        public var runCourses: Int
        /// Time to build the store, seconds (not part of matching).
        public var buildSeconds: Double
        public var runPoints: Int
        public var runMeters: Double
        /// Courses the R*Tree finds starting in the run's corridor and finishing in its box, and
        /// of those the ones the user can see whose ends the run reaches (their paths are read and aligned, longest first, until
        /// no shorter one can win).
        public var candidatesNearRun: Int
        public var candidatesReached: Int
        /// Per import, milliseconds: drafting the run, and storing it as a record.
        public var draftMilliseconds: [Double]
        public var storeMilliseconds: [Double]
        /// Per import, the CPU time of this thread (user and system) for both: what other work
        /// on the machine changes least.
        public var cpuMilliseconds: [Double]
        /// Per import, milliseconds: indexing the run (a part of the draft), and finding the
        /// candidates with their ends checked (a part of the store).
        public var indexMilliseconds: [Double]
        public var candidatesMilliseconds: [Double]
        /// The course every import linked to, and its course time.
        public var linkedCourseIDs: Set<Int64>
        public var courseTimeSeconds: Double

        /// Draft and store of one import together, per import.
        public var totalMilliseconds: [Double] { zip(draftMilliseconds, storeMilliseconds).map { $0 + $1 } }

        /// The `p`-th percentile (nearest rank) of `samples`.
        public static func percentile(_ samples: [Double], _ p: Double) -> Double {
            let sorted = samples.sorted()
            guard !sorted.isEmpty else { return .nan }
            return sorted[min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))]
        }

        /// The figures, for people.
        public var text: String {
            func line(_ name: String, _ samples: [Double]) -> String {
                String(
                    format: "  %-22@ %7.2f %7.2f %7.2f", name as NSString, Self.percentile(samples, 50),
                    Self.percentile(samples, 95), samples.max() ?? .nan)
            }
            return [
                String(
                    format: "store matching bench: %d generated courses + %d drawn on the run (built in %.1f s)",
                    generatedCourses, runCourses, buildSeconds),
                String(
                    format: "  run of %d points (%.1f km): %d courses start in its corridor, %d reached",
                    runPoints, runMeters / 1000, candidatesNearRun, candidatesReached),
                "  per import (ms)         median     p95     max",
                line("draft (stats, index)", draftMilliseconds),
                line("  of which the index", indexMilliseconds),
                line("store (match, record)", storeMilliseconds),
                line("  of which candidates", candidatesMilliseconds),
                line("total", totalMilliseconds),
                line("total, thread CPU", cpuMilliseconds),
                String(
                    format: "  linked to course %@, course time %.0f s",
                    linkedCourseIDs.sorted().map(String.init).joined(separator: ", ") as NSString, courseTimeSeconds),
            ].joined(separator: "\n")
        }
    }

    /// Builds the store at `path` (replacing any file there) and imports the run `imports` times.
    /// - Parameters:
    ///   - courseCount: Generated courses (``CorpusGenerator``'s Seoul loops, 60 % shared).
    ///   - runPoints: Fixes of the run.
    ///   - runCoursesPerKind: Courses of each of ``MatchingBenchmark/Kind`` drawn on the run.
    ///   - imports: Imports of the run timed; each stores a record.
    /// - Throws: Database errors.
    public static func run(
        courseCount: Int = 100_000, path: String, runPoints: Int = 10_000, runCoursesPerKind: Int = 10,
        imports: Int = 10, seed: UInt64 = 2026
    ) async throws -> Report {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
        let clock = ContinuousClock()
        let buildStart = clock.now
        let store = try await CourseStore(path: path, user: "minji")
        try await CorpusGenerator.fill(
            store, count: courseCount, batch: 10_000, jobs: BulkImporter.defaultJobs, seed: seed)
        let workload = MatchingBenchmark.workload(runPoints: runPoints, perKind: runCoursesPerKind, seed: seed)
        let drawn = try workload.courses.flatMap(\.paths).enumerated().map { number, path in
            var draft = try CourseDraft(
                activity: Activity(format: .pointsText, routes: [Route(points: path.map(TrackPoint.init))]),
                contentHash: String(format: "%064llx", UInt64(courseCount + number)), title: "drawn \(number)")
            draft.preset(owner: "jisoo", createdAt: Date(), isUploaded: true, scrapCount: 0)
            return draft
        }
        for result in try await store.insert(drawn) { _ = try result.get() }
        try await store.checkpoint()
        let buildSeconds = SearchBenchmark.seconds(clock.now - buildStart)

        let activity = Activity(format: .gpx11, tracks: [Track(segments: [TrackSegment(points: workload.run)])])
        var report = Report(
            generatedCourses: courseCount, runCourses: drawn.count, buildSeconds: buildSeconds,
            runPoints: runPoints, runMeters: activity.stats().distanceMeters, candidatesNearRun: 0,
            candidatesReached: 0, draftMilliseconds: [], storeMilliseconds: [], cpuMilliseconds: [],
            indexMilliseconds: [], candidatesMilliseconds: [], linkedCourseIDs: [], courseTimeSeconds: 0)
        for number in 0..<max(imports, 1) {
            let cpu = threadCPUMilliseconds()
            var start = clock.now
            let draft = try CourseDraft(
                activity: activity, contentHash: String(format: "%064llx", UInt64.max - UInt64(number)),
                title: "Bench run \(number + 1)", matching: RunMatching())
            report.draftMilliseconds.append(SearchBenchmark.seconds(clock.now - start) * 1000)
            start = clock.now
            let stored = try await store.store([draft])[0].get()
            report.storeMilliseconds.append(SearchBenchmark.seconds(clock.now - start) * 1000)
            report.cpuMilliseconds.append(threadCPUMilliseconds() - cpu)
            guard case .record(let recorded) = stored else { continue }
            report.linkedCourseIDs.insert(recorded.course.id)
            report.courseTimeSeconds = recorded.record.courseTimeSeconds

            // The parts, timed apart.
            start = clock.now
            _ = CourseMatcher(run: activity)
            report.indexMilliseconds.append(SearchBenchmark.seconds(clock.now - start) * 1000)
            start = clock.now
            let candidates = try await store.matchCandidates(for: draft)
            report.candidatesMilliseconds.append(SearchBenchmark.seconds(clock.now - start) * 1000)
            report.candidatesNearRun = candidates.nearRun
            report.candidatesReached = candidates.reached.count
        }
        return report
    }
}

/// CPU time of the calling thread so far, milliseconds.
private func threadCPUMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
}
