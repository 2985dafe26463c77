import Foundation
import RunnectKit
import Testing

@testable import RunnectStore

/// A record's course pace follows RunnectKit's one pace rule (issue 34, item 8).
@Suite("Store: a record's course pace")
struct RunRecordTests {
    static func record(courseMeters: Double, seconds: Double = 600) -> RunRecord {
        RunRecord(
            id: 1, owner: "runner", title: "run", courseID: 1, courseTitle: "course", sourceFormat: "gpx",
            contentHash: String(repeating: "0", count: 64), stats: ActivityStats(), deviceTimerSeconds: nil,
            courseTimeSeconds: seconds, courseDistanceMeters: courseMeters, matchCoverage: 1,
            createdAt: Date(timeIntervalSince1970: 0))
    }

    @Test("No course pace under the minimum distance: a nanometre, a few metres of GPS noise, 0 m")
    func noPaceUnderTheMinimum() {
        for meters in [1e-9, 1, 9.999, 0] {
            #expect(Self.record(courseMeters: meters).coursePaceSecondsPerKilometer == nil, "\(meters) m")
        }
    }

    @Test("From the minimum on, time over distance")
    func paceFromTheMinimum() {
        #expect(Self.record(courseMeters: 10, seconds: 3).coursePaceSecondsPerKilometer == 300)
        #expect(Self.record(courseMeters: 5_000, seconds: 1_500).coursePaceSecondsPerKilometer == 300)
    }
}
