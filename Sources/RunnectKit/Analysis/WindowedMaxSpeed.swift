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
///
/// The legs are taken one at a time (``add(seconds:meters:)``, from ``ofForwardLegs(times:cumulativeMeters:)``),
/// and only the last few are held: the five around the leg being despiked and the starts of the
/// windows not yet complete (about ten seconds' worth). Before, the measuring pass kept every leg
/// in two arrays and this type built three more (five arrays of 8 bytes a leg, 8 MB for a
/// 200,000-point track) to read them once each.
struct WindowedMaxSpeed {
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

    /// The last ``medianLegs`` legs taken, in a ring: duration and raw speed. The median of five
    /// does not depend on their order, only the leg being despiked does.
    private var recentSeconds = (0.0, 0.0, 0.0, 0.0, 0.0)
    private var recentSpeeds = (0.0, 0.0, 0.0, 0.0, 0.0)
    /// Legs taken so far.
    private var count = 0
    /// The median of the last five legs, once there are five.
    private var lastMedian = 0.0
    /// Time and despiked distance from the segment's start to the end of each despiked leg.
    private var elapsed = 0.0
    private var covered = 0.0
    /// Legs despiked so far: the prefix sums above reach the end of leg `despiked - 1`.
    private var despiked = 0
    /// Windows not yet complete, oldest first: the first starts at leg `firstOpenStart`.
    private var open = OpenWindows()
    private var firstOpenStart = 0
    /// The fastest complete window so far; −∞ before the first.
    private var fastest = -Double.infinity

    /// Takes the next leg of the segment.
    /// - Parameters:
    ///   - seconds: Its duration, positive.
    ///   - meters: Its distance.
    @inline(__always)
    mutating func add(seconds: Double, meters: Double) {
        let speed = meters / seconds
        // Leg `count` goes in slot `count % 5`, over the leg five before it.
        switch count % Self.medianLegs {
        case 0: (recentSeconds.0, recentSpeeds.0) = (seconds, speed)
        case 1: (recentSeconds.1, recentSpeeds.1) = (seconds, speed)
        case 2: (recentSeconds.2, recentSpeeds.2) = (seconds, speed)
        case 3: (recentSeconds.3, recentSpeeds.3) = (seconds, speed)
        default: (recentSeconds.4, recentSpeeds.4) = (seconds, speed)
        }
        count += 1
        guard count >= Self.medianLegs else { return }
        // The five legs centred on leg count − 3 (the first five for the first three legs).
        let s = recentSpeeds
        lastMedian = Self.median(s.0, s.1, s.2, s.3, s.4)
        if count == Self.medianLegs {
            despike(seconds: recentSeconds.0, median: lastMedian)
            despike(seconds: recentSeconds.1, median: lastMedian)
        }
        despike(seconds: recentDuration(ofLeg: count - 3), median: lastMedian)
    }

    /// The fastest window and the whole segment's speed, once every leg is taken.
    mutating func finish() -> Result {
        guard count > 0 else { return Result(windowed: nil, wholeSegment: nil) }
        if count >= Self.medianLegs {
            // The last two legs share the last five's median.
            despike(seconds: recentDuration(ofLeg: count - 2), median: lastMedian)
            despike(seconds: recentDuration(ofLeg: count - 1), median: lastMedian)
        } else {
            let seconds = [recentSeconds.0, recentSeconds.1, recentSeconds.2, recentSeconds.3]
            let window = [recentSpeeds.0, recentSpeeds.1, recentSpeeds.2, recentSpeeds.3][..<count].sorted()
            let median = count % 2 == 1 ? window[count / 2] : (window[count / 2 - 1] + window[count / 2]) / 2
            for leg in 0..<count { despike(seconds: seconds[leg], median: median) }
        }
        return Result(
            windowed: fastest > -.infinity ? fastest : nil, wholeSegment: elapsed > 0 ? covered / elapsed : nil)
    }

    /// The result for a segment's points: its legs join consecutive timed points and only run
    /// forward in time, so a fix whose time does not advance is folded into the next one that
    /// does, like an untimed fix (its distance is kept).
    /// - Parameters:
    ///   - times: The points' times on the forward-only timeline.
    ///   - cumulativeMeters: The distance along the segment to each point.
    /// - Complexity: O(n) in the number of points.
    static func ofForwardLegs(times: SegmentMeasurement.Times, cumulativeMeters: [Double]) -> Result {
        var speed = WindowedMaxSpeed()
        var last: (seconds: Double, meters: Double)?
        for index in cumulativeMeters.indices {
            let seconds = times.seconds(at: index)
            guard !seconds.isNaN else { continue }
            if let last {
                let duration = seconds - last.seconds
                guard duration > 0 else { continue }
                speed.add(seconds: duration, meters: cumulativeMeters[index] - last.meters)
            }
            last = (seconds, cumulativeMeters[index])
        }
        return speed.finish()
    }

    /// The duration of leg `leg`, one of the last five taken.
    @inline(__always)
    private func recentDuration(ofLeg leg: Int) -> Double {
        switch leg % Self.medianLegs {
        case 0: recentSeconds.0
        case 1: recentSeconds.1
        case 2: recentSeconds.2
        case 3: recentSeconds.3
        default: recentSeconds.4
        }
    }

    /// Adds the next leg in order with its despiked speed, then closes every open window that
    /// the new end completes. A start's first complete end is its shortest window; a later start
    /// completes no earlier, because every leg has a positive duration, so windows close in the
    /// order they opened.
    @inline(__always)
    private mutating func despike(seconds: Double, median: Double) {
        if despiked == 0 { open.append(elapsed: 0, covered: 0) }
        elapsed += seconds
        covered += median * seconds
        despiked += 1
        while let start = open.first {
            let duration = elapsed - start.elapsed
            guard despiked >= firstOpenStart + Self.minimumWindowLegs, duration >= Self.minimumWindowSeconds
            else { break }
            if duration > 0 {
                let speed = (covered - start.covered) / duration
                fastest = max(fastest, speed)
            }
            open.removeFirst()
            firstOpenStart += 1
        }
        open.append(elapsed: elapsed, covered: covered)
    }

    /// The starts of the open windows, a queue in a ring of doubles that grows by doubling: as
    /// many as there are legs in ten seconds, and a queue of value type would check its storage's
    /// uniqueness on every write of the measuring pass's hottest loop.
    private struct OpenWindows {
        private final class Storage {
            /// Pairs of (elapsed, covered), `capacity` of them.
            var pairs: UnsafeMutablePointer<Double>
            var capacity: Int
            init(capacity: Int) {
                self.capacity = capacity
                pairs = .allocate(capacity: 2 * capacity)
            }
            deinit { pairs.deallocate() }
        }

        private let storage = Storage(capacity: 16)
        private var head = 0
        private var count = 0

        @inline(__always)
        var first: (elapsed: Double, covered: Double)? {
            guard count > 0 else { return nil }
            return (storage.pairs[2 * head], storage.pairs[2 * head + 1])
        }

        @inline(__always)
        mutating func removeFirst() {
            head = head + 1 == storage.capacity ? 0 : head + 1
            count -= 1
        }

        @inline(__always)
        mutating func append(elapsed: Double, covered: Double) {
            if count == storage.capacity { grow() }
            var slot = head + count
            if slot >= storage.capacity { slot -= storage.capacity }
            storage.pairs[2 * slot] = elapsed
            storage.pairs[2 * slot + 1] = covered
            count += 1
        }

        /// Doubles the ring, its queue moved to the start.
        private mutating func grow() {
            let old = storage.pairs
            let capacity = storage.capacity
            let pairs = UnsafeMutablePointer<Double>.allocate(capacity: 4 * capacity)
            for index in 0..<count {
                let from = (head + index) % capacity
                pairs[2 * index] = old[2 * from]
                pairs[2 * index + 1] = old[2 * from + 1]
            }
            old.deallocate()
            storage.pairs = pairs
            storage.capacity = 2 * capacity
            head = 0
        }
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
