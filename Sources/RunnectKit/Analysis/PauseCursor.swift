import Foundation

/// ``SegmentMeasurement``'s lookups into the timer pauses, point after point: each starts where
/// the one before ended, so times that move forward cost a comparison or two instead of a
/// bisection of every pause of the activity (a chained FIT file has hundreds). The answers are
/// those of ``SegmentMeasurement/firstPause(endingAfter:_:)``, for times in any order.
struct PauseCursor {
    let pauses: [DateInterval]
    /// The answer of the last lookup.
    private var index = 0

    init(_ pauses: [DateInterval]) {
        self.pauses = pauses
    }

    /// Index of the first pause that ends after `time`; `pauses.count` when none does.
    mutating func firstPause(endingAfter time: Date) -> Int {
        let count = pauses.count
        // The answer is the first index whose pause ends after `time`: look from the last one.
        if index > 0 && pauses[index - 1].end > time {
            index = SegmentMeasurement.firstPause(endingAfter: time, pauses[..<index])
        } else {
            var steps = 0
            while index < count && pauses[index].end <= time {
                index += 1
                steps += 1
                if steps == 4 {
                    index = SegmentMeasurement.firstPause(endingAfter: time, pauses[index...])
                    break
                }
            }
        }
        return index
    }

    /// Whether `time` lies strictly inside one of the pauses: a reading stamped at the stop or at
    /// the restart is not inside.
    mutating func isInsidePause(_ time: Date) -> Bool {
        let index = firstPause(endingAfter: time)
        return index < pauses.count && pauses[index].start < time
    }

    /// Whether the leg from `start` to `end` overlaps a pause by more than an instant: a fix
    /// stamped at the stop itself still ends a moving leg.
    mutating func reachesIntoPause(from start: Date, to end: Date) -> Bool {
        guard !pauses.isEmpty else { return false }
        let index = firstPause(endingAfter: start)
        return index < pauses.count && pauses[index].start < end
    }
}
