import Foundation
import RunnectKit
import Testing

@testable import RunnectBenchmarkSupport

/// ``MatchingBenchmark`` itself is run by `runnect-bench matching`, in a release build; here only
/// its workload is checked (every kind of course meets the fate it is made for), never timings.
@Suite("Matching: benchmark machinery")
struct MatchingBenchmarkTests {
    @Test("drawn and recorded courses are accepted, every other kind rejected; the workload is the same for a seed")
    func outcomes() {
        let report = MatchingBenchmark.run(runPoints: 3_000, coursesPerKind: 8, repeats: 1, seed: 7)
        #expect(report.kinds.map(\.kind) == MatchingBenchmark.Kind.allCases)
        for figures in report.kinds {
            let expected = [.drawn5k, .drawn10k, .recorded5k].contains(figures.kind) ? figures.courses : 0
            #expect(figures.courses == 8 && figures.accepted == expected, "\(figures.kind): \(figures.accepted)")
            #expect(figures.microsecondsPerCourse > 0)
        }
        // 2.5 m a second, and the zigzag of ±1.5 m of GPS noise on top.
        #expect((7_500...8_200).contains(report.runMeters), "\(report.runMeters)")
        #expect(report.text.contains("µs/course"))
        let again = MatchingBenchmark.workload(runPoints: 500, perKind: 2, seed: 7)
        let once = MatchingBenchmark.workload(runPoints: 500, perKind: 2, seed: 7)
        #expect(again.run == once.run)
        #expect(again.courses.map(\.paths) == once.courses.map(\.paths))
    }

    @Test("match and evaluate decide alike on every kind of course, with the same figures")
    func matchAgreesWithEvaluate() {
        let workload = MatchingBenchmark.workload(runPoints: 3_000, perKind: 6, seed: 11)
        let matcher = CourseMatcher(segments: [workload.run])
        for (kind, paths) in workload.courses {
            for path in paths {
                let evaluated = try? matcher.evaluate(course: path).get()
                #expect(matcher.match(course: path) == evaluated, "\(kind)")
            }
        }
    }
}
