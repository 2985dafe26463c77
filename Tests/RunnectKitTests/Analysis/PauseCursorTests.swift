import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

@Suite("PauseCursor: the measuring pass's pause lookups")
struct PauseCursorTests {
    @Test("the same answers as bisecting every pause, for times forward, back and at the edges")
    func sameAsBisection() {
        var random = SplitMix64(seed: 0x9A05E)
        for pauseCount in [0, 1, 2, 5, 40, 300] {
            // Sorted, not overlapping; some touching.
            var pauses: [DateInterval] = []
            var clock = 0.0
            for _ in 0..<pauseCount {
                clock += Double(random.next() % 3) * 10
                let length = Double(random.next() % 4) * 5 + 1
                pauses.append(DateInterval(start: Date(timeIntervalSinceReferenceDate: clock), duration: length))
                clock += length
            }
            var cursor = PauseCursor(pauses)
            var time = -20.0
            for _ in 0..<5_000 {
                // Mostly forward in small steps, sometimes a jump either way, sometimes an edge.
                switch random.next() % 10 {
                case 0: time = Double(random.next() % UInt64(clock + 40)) - 20
                case 1:
                    time =
                        pauses.isEmpty
                        ? time : pauses[Int(random.next() % UInt64(pauses.count))].end.timeIntervalSinceReferenceDate
                default: time += Double(random.next() % 7)
                }
                let date = Date(timeIntervalSinceReferenceDate: time)
                let end = date + Double(random.next() % 30)
                // The reference: bisection over every pause, and the rules written out.
                let expected = SegmentMeasurement.firstPause(endingAfter: date, pauses)
                #expect(cursor.firstPause(endingAfter: date) == expected, "\(pauseCount) pauses, \(time)")
                #expect(cursor.isInsidePause(date) == (expected < pauses.count && pauses[expected].start < date))
                #expect(
                    cursor.reachesIntoPause(from: date, to: end)
                        == (expected < pauses.count && pauses[expected].start < end))
            }
        }
    }
}
