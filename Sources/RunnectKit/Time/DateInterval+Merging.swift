import Foundation

extension Array where Element == DateInterval {
    /// The intervals in time order, overlapping (or touching) ones joined: what
    /// ``Activity/timerPauses`` holds, made from pauses given in any order.
    func mergedInTimeOrder() -> [DateInterval] {
        var merged: [DateInterval] = []
        for interval in sorted(by: { $0.start < $1.start }) {
            if let last = merged.last, interval.start <= last.end {
                merged[merged.count - 1] = DateInterval(start: last.start, end: Swift.max(last.end, interval.end))
            } else {
                merged.append(interval)
            }
        }
        return merged
    }
}
