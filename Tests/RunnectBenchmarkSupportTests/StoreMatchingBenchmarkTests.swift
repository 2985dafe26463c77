import Foundation
import RunnectKit
import Testing

@testable import RunnectBenchmarkSupport

/// ``StoreMatchingBenchmark`` is run at 100,000 courses by `runnect-bench store-matching`, in a
/// release build; here a small store checks its machinery and that the store's shortcuts (the
/// R*Tree, the ends checked first) pick the course a brute-force search over every drawn course
/// picks. No timings are checked.
@Suite("Matching: store benchmark machinery")
struct StoreMatchingBenchmarkTests {
    @Test("every import links to the course brute force finds best; the ends-first check leaves few paths to align")
    func linksTheBestCourse() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-match-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try await StoreMatchingBenchmark.run(
            courseCount: 1_500, path: folder.appendingPathComponent("store.sqlite").path, runPoints: 4_000,
            runCoursesPerKind: 3, imports: 3, seed: 5)

        let workload = MatchingBenchmark.workload(runPoints: 4_000, perKind: 3, seed: 5)
        let matcher = CourseMatcher(segments: [workload.run])
        var best: (number: Int, match: CourseMatch)?
        for (number, path) in workload.courses.flatMap(\.paths).enumerated() {
            guard let match = matcher.match(course: path) else { continue }
            if let current = best, !CourseMatch.ranksBelow(current.match, match) { continue }
            best = (number, match)
        }
        let expected = try #require(best)
        // The generated courses take ids 1…1,500; the drawn ones follow in order.
        #expect(report.linkedCourseIDs == [Int64(1_500 + expected.number + 1)], "\(report.text)")
        #expect(abs(report.courseTimeSeconds - expected.match.courseTimeSeconds) < 1e-6)
        #expect(report.draftMilliseconds.count == 3 && report.storeMilliseconds.count == 3)
        // Drawn, recorded, shortcut and backwards courses have both ends on the run (3 of each,
        // the last the wrong way round); a start elsewhere has neither.
        #expect(report.candidatesReached >= 12 && report.candidatesReached < report.candidatesNearRun, "\(report.text)")
        #expect(report.text.contains("reached"))
    }
}
