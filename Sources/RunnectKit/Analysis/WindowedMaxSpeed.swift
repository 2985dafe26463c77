/// The fastest speed held over a window of time, robust to GPS spikes.
///
/// One bad fix 60 m off the path in 1 s data makes two legs of about 60 m/s; the maximum of leg
/// speeds would report a 60 m/s runner. Two steps keep such spikes out:
///
/// 1. **Despiking.** Every leg's speed is replaced by the median speed of the five legs centred on
///    it (the five nearest, at the ends of a segment). A spike point makes only two fast legs in a
///    row, so the median never sees it; a real change of pace lasts longer and passes unchanged.
/// 2. **Windowing.** The speed of a window is its despiked distance divided by its time, over
///    windows of consecutive legs lasting at least ``minimumWindowSeconds`` (10 s) *and* holding at
///    least ``minimumWindowLegs`` (5) legs, whichever is longer. The maximum over all windows is
///    the result.
///
/// Legs join consecutive timed points of one segment; untimed points in between add their
/// distance to the leg, and a point whose time does not advance is treated as untimed, so every
/// leg and window has a positive duration. Windows never span two segments.
enum WindowedMaxSpeed {
    /// The shortest window, seconds.
    static let minimumWindowSeconds = 10.0
    /// The fewest legs in a window.
    static let minimumWindowLegs = 5
    /// How many legs the despiking median looks at.
    static let medianLegs = 5

    struct Result {
        /// The fastest complete window, or `nil` when the segment is too short for one.
        var windowed: Double?
        /// The despiked speed of the whole segment: the fallback when no segment of an activity
        /// has a complete window (`nil` without a timed leg).
        var wholeSegment: Double?
    }

    /// Evaluates one segment's legs (durations all positive).
    ///
    /// - Parameters:
    ///   - seconds: Duration of each leg, all positive.
    ///   - meters: Distance of each leg.
    /// - Returns: The fastest complete window and the whole-segment speed.
    /// - Complexity: O(n) in the number of legs.
    static func evaluate(seconds: [Double], meters: [Double]) -> Result {
        let count = seconds.count
        guard count > 0 else { return Result(windowed: nil, wholeSegment: nil) }

        // Prefix sums of time and of despiked distance (median speed × the leg's own time).
        var elapsed = [Double](repeating: 0, count: count + 1)
        var covered = [Double](repeating: 0, count: count + 1)
        let speeds = (0..<count).map { meters[$0] / seconds[$0] }
        for leg in 0..<count {
            let median: Double
            if count >= medianLegs {
                // The five legs centred on this one (the first or last five at the ends).
                let first = min(max(leg - medianLegs / 2, 0), count - medianLegs)
                median = Self.median(
                    speeds[first], speeds[first + 1], speeds[first + 2], speeds[first + 3], speeds[first + 4])
            } else {
                let window = speeds.sorted()
                median = count % 2 == 1 ? window[count / 2] : (window[count / 2 - 1] + window[count / 2]) / 2
            }
            elapsed[leg + 1] = elapsed[leg] + seconds[leg]
            covered[leg + 1] = covered[leg] + median * seconds[leg]
        }

        // For each start, the shortest complete window; its end never moves back as the start
        // moves on, because every leg has a positive duration.
        var fastest: Double?
        var end = 0
        for start in 0..<count {
            end = max(end, start + minimumWindowLegs)
            while end <= count && elapsed[end] - elapsed[start] < minimumWindowSeconds {
                end += 1
            }
            guard end <= count else { break }
            let duration = elapsed[end] - elapsed[start]
            guard duration > 0 else { continue }
            let speed = (covered[end] - covered[start]) / duration
            fastest = max(fastest ?? speed, speed)
        }
        let whole = elapsed[count] > 0 ? covered[count] / elapsed[count] : nil
        return Result(windowed: fastest, wholeSegment: whole)
    }

    /// The median of five values, in six comparisons and no array: the smallest and the largest
    /// of the first four can be neither the median nor beside it, so the median is that of the
    /// fifth and the two values `max(min(a, b), min(c, d))` and `min(max(a, b), max(c, d))`
    /// (checked against sorting on every 5-tuple of 0…3 and on random ones).
    @inline(__always)
    static func median(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double) -> Double {
        let low = max(min(a, b), min(c, d))
        let high = min(max(a, b), max(c, d))
        return max(min(low, high), min(max(low, high), e))
    }
}
