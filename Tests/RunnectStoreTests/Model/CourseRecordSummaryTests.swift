import Testing

@testable import RunnectStore

@Suite("Store: a course's record summary")
struct CourseRecordSummaryTests {
    @Test("the trend is the least-squares slope of the course times, per attempt")
    func trend() {
        // Times falling by 10 s an attempt, then a noisy set worked by hand:
        // x̄ = 1.5, ȳ = 620; Σ(dx·dy) = (−1.5)(10) + (−0.5)(−10) + (0.5)(20) + (1.5)(−20) = −30; Σdx² = 5.
        #expect(CourseRecordSummary.slope([100, 90, 80]) == -10)
        #expect(CourseRecordSummary.slope([630, 610, 640, 600]) == -6)
        #expect(CourseRecordSummary.slope([600]) == nil)
        #expect(CourseRecordSummary.slope([]) == nil)
    }
}
