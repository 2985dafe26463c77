import Foundation

/// The steep-ground rule of moving time: a leg slower than the moving threshold still moves while
/// the runner climbs or descends steadily and goes somewhere (see
/// ``StatsOptions/movingVerticalSpeedThresholdMetersPerHour``).
///
/// For a leg from `a` to `b` (midpoint `m`), the window runs from `min(a, m − W/2)` to
/// `max(b, m + W/2)`, cut to the segment's first and last kept elevation and to the time the timer
/// ran around the leg (it never reaches over a pause). Over a window at least `W/2` long, the leg
/// moves when the net change of the interpolated elevation is at least the vertical rate and the
/// distance along the track at least the horizontal one.
struct SteepGround {
    /// The points with the file's own times, which the pauses are matched to.
    private let points: [TrackPoint]
    /// Their times on the forward-only timeline.
    private let times: SegmentMeasurement.Times
    private let timerPauses: [DateInterval]
    /// Times are seconds since this instant (seconds since 2001-01-01 UTC): the segment's first
    /// timed point.
    private let originSeconds: Double
    /// The kept elevations of timed points, over time.
    private let elevation: PiecewiseLinear
    /// The distance along the segment at its timed points, over time.
    private let distance: PiecewiseLinear
    private let windowSeconds: Double
    private let verticalMetersPerSecond: Double
    private let horizontalMetersPerSecond: Double
    /// Where the last lookups at the window's start and end were: legs come in time order, so each
    /// lookup starts from the one before (see ``PiecewiseLinear/value(at:hint:)``).
    private var hints = (elevationStart: 1, elevationEnd: 1, distanceStart: 1, distanceEnd: 1)

    /// Prepares the rule for one segment.
    ///
    /// - Parameters:
    ///   - points: The segment's points with the file's own times, which the pauses are matched to.
    ///   - times: Their times on the forward-only timeline.
    ///   - origin: The instant the times of `elevation` and `distance` are counted from.
    ///   - elevation: The kept elevations of the timed points, over time.
    ///   - distance: The distance along the segment at its timed points, over time.
    ///   - timerPauses: Times the timer was stopped, sorted, not overlapping.
    ///   - options: The thresholds.
    init(
        points: [TrackPoint], times: SegmentMeasurement.Times, origin: Date, elevation: PiecewiseLinear,
        distance: PiecewiseLinear, timerPauses: [DateInterval], options: StatsOptions
    ) {
        self.points = points
        self.times = times
        self.timerPauses = timerPauses
        originSeconds = origin.timeIntervalSinceReferenceDate
        self.elevation = elevation
        self.distance = distance
        windowSeconds = options.movingVerticalWindowSeconds
        verticalMetersPerSecond = options.movingVerticalSpeedThresholdMetersPerHour / 3600
        horizontalMetersPerSecond = options.movingVerticalMinimumHorizontalSpeedMetersPerSecond
    }

    /// Whether `leg`, not moving by its speed, moves by the steep-ground rule. A leg without time,
    /// already moving, or reaching into a pause is left as it is (`false`).
    /// - Complexity: Amortised O(1) when called for the legs in time order (O(n) in all for n
    ///   points), O(log n) for a leg earlier than the one before.
    mutating func isMoving(_ leg: SegmentMeasurement.TimedLeg) -> Bool {
        guard leg.seconds > 0, !leg.isMoving, !leg.reachesIntoPause, elevation.times.count >= 2 else {
            return false
        }
        let legStart = times.seconds(at: leg.from)
        let legEnd = times.seconds(at: leg.to)
        guard !legStart.isNaN, !legEnd.isNaN else { return false }
        let firstElevation = elevation.times[0]
        let lastElevation = elevation.times[elevation.times.count - 1]
        let a = legStart - originSeconds
        let b = legEnd - originSeconds
        let middle = (a + b) / 2
        var start = max(min(a, middle - windowSeconds / 2), firstElevation)
        var end = min(max(b, middle + windowSeconds / 2), lastElevation)
        if !timerPauses.isEmpty {
            // Pauses are on the file's own timeline: measured from the leg's ends there.
            let recordedStart = points[leg.from].time ?? Date(timeIntervalSinceReferenceDate: legStart)
            let recordedEnd = points[leg.to].time ?? Date(timeIntervalSinceReferenceDate: legEnd)
            let next = SegmentMeasurement.firstPause(endingAfter: recordedStart, timerPauses)
            if next > 0 {
                start = max(start, a + timerPauses[next - 1].end.timeIntervalSince(recordedStart))
            }
            // The leg does not reach into it, so that pause starts at or after the leg's end.
            if next < timerPauses.count {
                end = min(end, b + timerPauses[next].start.timeIntervalSince(recordedEnd))
            }
        }
        let span = end - start
        guard span > 0, span >= windowSeconds / 2 else { return false }
        let climb =
            elevation.value(at: end, hint: &hints.elevationEnd)
            - elevation.value(at: start, hint: &hints.elevationStart)
        let vertical = abs(climb) / span
        guard vertical >= verticalMetersPerSecond else { return false }
        let covered =
            distance.value(at: end, hint: &hints.distanceEnd)
            - distance.value(at: start, hint: &hints.distanceStart)
        return covered / span >= horizontalMetersPerSecond
    }
}

/// A value over time, linear between samples and constant beyond the first and the last.
struct PiecewiseLinear {
    /// Sample times, seconds, in order (equal times allowed).
    private(set) var times: [Double] = []
    private(set) var values: [Double] = []

    init(capacity: Int) {
        times.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    mutating func append(_ time: Double, _ value: Double) {
        times.append(time)
        values.append(value)
    }

    /// The value at `time` (at an inner time that several samples share, the last of them).
    /// - Precondition: At least one sample.
    /// - Complexity: O(log n).
    func value(at time: Double) -> Double {
        var hint = times.count
        return value(at: time, hint: &hint)
    }

    /// The value at `time`, looking for it from `hint`: the index of the first sample after the
    /// time of the lookup before, which this one updates.
    ///
    /// A lookup at a later time gallops forward from there (strides that double, then bisection),
    /// so lookups in time order cost O(n) in all and O(log d) each for a lookup d samples on; one
    /// at an earlier time searches the samples before the hint by bisection.
    /// - Precondition: At least one sample.
    func value(at time: Double, hint: inout Int) -> Double {
        let last = times.count - 1
        if time <= times[0] { return values[0] }
        if time >= times[last] { return values[last] }
        // The first sample after `time`: 1…last, since times[0] ≤ time < times[last].
        var after = min(max(hint, 1), last)
        if times[after - 1] <= time {
            // Forward by strides that double, then by bisection: the slow legs the rule looks at
            // may lie far apart, and a step at a time would walk every sample between them.
            var stride = 1
            while times[after] <= time {  // times[last] > time: the walk ends by `last`
                let next = min(after + stride, last)
                if times[next] <= time {
                    after = next + 1
                    stride *= 2
                } else {
                    var low = after + 1
                    var high = next
                    while low < high {
                        let mid = (low + high) / 2
                        if times[mid] <= time { low = mid + 1 } else { high = mid }
                    }
                    after = low
                    break
                }
            }
        } else {
            var low = 1
            var high = after - 1
            while low < high {
                let mid = (low + high) / 2
                if times[mid] <= time { low = mid + 1 } else { high = mid }
            }
            after = low
        }
        hint = after
        let t0 = times[after - 1]
        let t1 = times[after]
        return values[after - 1] + (values[after] - values[after - 1]) * (time - t0) / (t1 - t0)
    }
}
