import Foundation

/// Everything ``ActivityStats`` needs from one segment, measured in one pass over its points after
/// one call into GeographicLib for all of its legs.
///
/// Activity figures are sums, extremes and concatenations of these; splits read the cumulative
/// distances and the timed legs.
struct SegmentMeasurement {
    /// A stretch between two consecutive timed points of the segment, in document order.
    struct TimedLeg {
        /// Index of the timed point the leg starts at.
        var from: Int
        /// Index of the timed point the leg ends at.
        var to: Int
        /// Time from `from` to `to` on the forward-only timeline (see ``TimeOrder``): zero when
        /// the file's times do not advance, never negative.
        var seconds: Double
        /// Distance from `from` to `to` along the segment, untimed points in between included.
        var meters: Double
        /// Whether the leg counted as moving: positive time, not reaching into a timer pause, and
        /// faster than the threshold or on steep ground (see ``SteepGround``).
        var isMoving: Bool
        /// Whether the leg reaches into a timer pause (it never moves then).
        var reachesIntoPause = false
    }

    /// The segment's points as given (sharing storage with the caller's array), with the file's
    /// own times.
    let points: [TrackPoint]
    /// The points' times on the forward-only timeline (see ``TimeOrder``): their own unless the
    /// course's times go back somewhere.
    let times: Times
    /// Distance along the segment from its first point to each point, metres. A point without a
    /// position repeats its predecessor's value.
    let cumulativeMeters: [Double]
    /// Length of the segment: the sum of its geodesic legs.
    let distanceMeters: Double
    /// Sum over legs of √(d² + Δe²) where both ends have an elevation, plus d where not.
    private(set) var distance3DMeters = 0.0
    /// Whether any point of the segment has an elevation that is kept (see ``droppedElevations``).
    private(set) var hasElevation = false
    /// Indices, in order, of the points whose finite elevation is left out of every elevation
    /// figure: a spike (``ElevationSpikeGate``) or a reading taken while the timer was stopped.
    /// Usually empty.
    private(set) var droppedElevations: [Int] = []
    /// Time of the first and last timed points (document order), on the forward-only timeline.
    private(set) var firstTime: Date?
    private(set) var lastTime: Date?
    /// Time of the first and last timed points as the file gives them.
    let firstRecordedTime: Date?
    let lastRecordedTime: Date?
    /// Indices of the first and last timed points.
    private(set) var firstTimedIndex: Int?
    private(set) var lastTimedIndex: Int?
    /// Legs between consecutive timed points.
    private(set) var timedLegs: [TimedLeg] = []
    /// Sum of the moving legs' times and distances.
    private(set) var movingSeconds = 0.0
    private(set) var movingMeters = 0.0
    /// Elevation gain and loss with hysteresis over the kept elevations (0 when there are none).
    private(set) var elevationGainMeters = 0.0
    private(set) var elevationLossMeters = 0.0
    private(set) var minElevationMeters: Double?
    private(set) var maxElevationMeters: Double?
    /// Sums, counts and maxima of heart rate and cadence over the points that have them.
    private(set) var heartRate = Tally()
    private(set) var cadence = Tally()
    /// Fastest windowed speed of the segment; see ``WindowedMaxSpeed``.
    private(set) var maxSpeed = WindowedMaxSpeed.Result(windowed: nil, wholeSegment: nil)
    /// The extremes of the segment's positioned points, for the activity's ``Bounds``.
    private(set) var extent = Bounds.Extent()
    /// The steep-ground rule's second look, until ``applySteepGround()`` takes it.
    private var pendingSteepGround: SteepGround?

    /// The sum, count and highest value of a reading (heart rate, cadence) over the points that
    /// have it.
    struct Tally {
        private var sum = 0.0
        private var count = 0
        private var highest = -Double.infinity

        /// Takes a point's reading: nothing when it has none.
        @inline(__always)
        mutating func add(_ value: Double?) {
            guard let value, value.isFinite else { return }
            sum += value
            count += 1
            highest = Swift.max(highest, value)
        }

        /// Takes the readings of another tally (a later segment's), as if they had been added here.
        mutating func add(_ other: Tally) {
            sum += other.sum
            count += other.count
            highest = Swift.max(highest, other.highest)
        }

        /// The highest value, or `nil` when no point had one.
        var max: Double? { count > 0 ? highest : nil }

        /// The mean value (a plain sample mean), or `nil` when no point had one.
        var mean: Double? { count > 0 ? sum / Double(count) : nil }
    }

    /// Whether a point has a usable position: finite coordinates, latitude within −90…90.
    ///
    /// GeographicLib gives NaN for anything else, and a reader may keep a fix without position (a
    /// TCX trackpoint without `<Position>`) for its time, heart rate or elevation.
    static func hasPosition(_ point: TrackPoint) -> Bool {
        point.latitude.isFinite && point.longitude.isFinite && abs(point.latitude) <= 90
    }

    /// Measures one segment.
    ///
    /// - Parameters:
    ///   - points: The points with the file's own times: timer pauses are matched against them,
    ///     and they give the recorded first and last times.
    ///   - forwardTimes: The points' times on the forward-only timeline
    ///     (``TimeOrder/forwardTimes(_:)``), when they differ from the file's: every other figure is
    ///     measured on them.
    ///   - timerPauses: Times the device's timer was stopped, in order and not overlapping: a leg
    ///     reaching into one is not moving, whatever its speed, and an elevation recorded inside one
    ///     is left out.
    ///   - options: The thresholds.
    ///   - appliesSteepGround: Whether the steep-ground rule's second look at the slow legs is
    ///     taken now, or left to ``applySteepGround()``.
    ///   - usesTwoCores: Whether the legs and the windowed speed are found on a second core as
    ///     well; by default, for a segment of ``InParallel/minimumPoints`` points or more. The
    ///     figures are the same either way.
    /// - Complexity: O(n + (n + m) log p) for n points, m timed legs and p pauses, with one call
    ///   into C++ for all leg lengths.
    init(
        points: [TrackPoint], forwardTimes: [Double]? = nil, timerPauses: [DateInterval] = [],
        options: StatsOptions, appliesSteepGround: Bool = true, usesTwoCores: Bool? = nil
    ) {
        let usesTwoCores = usesTwoCores ?? (points.count >= InParallel.minimumPoints)
        self.points = points
        let times = Times(points: points, forward: forwardTimes)
        self.times = times
        firstRecordedTime = points.lazy.compactMap(\.time).first
        lastRecordedTime = points.reversed().lazy.compactMap(\.time).first
        let cumulative = Self.cumulativeDistances(of: points, usesTwoCores: usesTwoCores)
        self.cumulativeMeters = cumulative
        self.distanceMeters = cumulative.last ?? 0

        var hysteresis = ElevationHysteresis(thresholdMeters: options.elevationHysteresisMeters)
        var gate = ElevationSpikeGate(
            rateMetersPerSecond: options.elevationSpikeVerticalSpeedMetersPerSecond,
            slackMeters: options.elevationSpikeSlackMeters)
        // A segment whose times never advance (every fix stamped with one sentinel time) gives no
        // vertical rate to check: its elevations pass the gate as untimed ones do.
        let timedStart = times.first
        let origin = timedStart ?? Date(timeIntervalSinceReferenceDate: 0)
        let originSeconds = origin.timeIntervalSinceReferenceDate
        let timesAdvance = times.last.map { origin < $0 } ?? false
        // The kept elevations and the distance over time, for the steep-ground rule of moving time.
        let isSteepGroundOn = options.movingVerticalSpeedThresholdMetersPerHour > 0
        var elevationOverTime = PiecewiseLinear(capacity: isSteepGroundOn ? points.count : 0)
        var distanceOverTime = PiecewiseLinear(capacity: isSteepGroundOn ? points.count : 0)
        var hasSlowLeg = false
        // The figures are kept in locals while the pass runs: stored properties would go through
        // memory at every point. Times are seconds since 2001-01-01 UTC, NaN for none; so are
        // missing elevations.
        var distance3D = 0.0
        var minElevation = Double.infinity
        var maxElevation = -Double.infinity
        var moving = (seconds: 0.0, meters: 0.0)
        var previousPositioned = (index: -1, elevation: Double.nan)
        var lastTimed = (index: -1, seconds: Double.nan)
        var firstTimed = -1
        var lastTimedPoint = -1  // a repeated fix included, unlike `lastTimed`
        var pauses = PauseCursor(timerPauses)
        let hasPauses = !timerPauses.isEmpty
        let movingSpeed = options.movingSpeedThresholdMetersPerSecond
        // The windowed speed reads only the times and distances, the extent and the heart rate and
        // cadence only the points: a long segment's are found on the other core while this one
        // takes the pass below.
        let otherCore = InParallel.start(usesTwoCores) {
            var extent = Bounds.Extent()
            var heartRate = Tally()
            var cadence = Tally()
            for point in points {
                extent.add(point)
                heartRate.add(point.heartRateBPM)
                cadence.add(point.cadence)
            }
            let speed = WindowedMaxSpeed.ofForwardLegs(times: times, cumulativeMeters: cumulative)
            return (speed, extent, heartRate, cadence)
        }
        if timedStart != nil {
            // At most one leg per point: sized once, never grown (growing by doubling wrote and
            // page-faulted twice the final storage; only what is written becomes memory).
            timedLegs.reserveCapacity(points.count)
        }

        for index in points.indices {
            let point = points[index]
            let seconds = times.seconds(at: index)
            var elevation = point.elevationMeters.map { $0.isFinite ? $0 : .nan } ?? .nan
            if !elevation.isNaN {
                let isPaused = hasPauses && point.time.map { pauses.isInsidePause($0) } == true
                if isPaused || !gate.accepts(elevation, atSeconds: timesAdvance ? seconds : .nan) {
                    droppedElevations.append(index)
                    elevation = .nan
                }
            }

            if Self.hasPosition(point) {
                if previousPositioned.index >= 0 {
                    let leg = cumulative[index] - cumulative[previousPositioned.index]
                    let climb = elevation - previousPositioned.elevation
                    // NaN unless both ends have a kept elevation.
                    distance3D += climb.isNaN ? leg : (leg * leg + climb * climb).squareRoot()
                }
                previousPositioned = (index, elevation)
            }

            if !elevation.isNaN {
                hysteresis.add(elevation)
                minElevation = min(minElevation, elevation)
                maxElevation = max(maxElevation, elevation)
            }

            guard !seconds.isNaN else { continue }
            if isSteepGroundOn {
                distanceOverTime.append(seconds - originSeconds, cumulative[index])
                if !elevation.isNaN { elevationOverTime.append(seconds - originSeconds, elevation) }
            }
            if firstTimed < 0 { firstTimed = index }
            lastTimedPoint = index
            guard lastTimed.index >= 0 else {
                lastTimed = (index, seconds)
                continue
            }
            let legSeconds = seconds - lastTimed.seconds
            let meters = cumulative[index] - cumulative[lastTimed.index]
            // A fix exactly repeated (0 m) is a device with no new position, not a runner who
            // stopped for that second: its time folds into the next leg. A real stop of repeated
            // fixes still ends in one long, slow leg, which does not count as moving.
            if meters == 0 && legSeconds > 0 { continue }
            let isPaused =
                hasPauses
                && pauses.reachesIntoPause(
                    from: points[lastTimed.index].time ?? Date(timeIntervalSinceReferenceDate: lastTimed.seconds),
                    to: point.time ?? Date(timeIntervalSinceReferenceDate: seconds))
            let isFast = legSeconds > 0 && meters / legSeconds > movingSpeed
            let isMoving = isFast && !isPaused
            if isMoving {
                moving.seconds += legSeconds
                moving.meters += meters
            } else if legSeconds > 0 && !isPaused {
                hasSlowLeg = true
            }
            timedLegs.append(
                TimedLeg(
                    from: lastTimed.index, to: index, seconds: legSeconds,
                    meters: meters, isMoving: isMoving, reachesIntoPause: isPaused))
            lastTimed = (index, seconds)
        }
        if firstTimed >= 0 {
            firstTimedIndex = firstTimed
            firstTime = times[firstTimed]
            lastTimedIndex = lastTimedPoint
            lastTime = times[lastTimedPoint]
        }
        distance3DMeters = distance3D
        hasElevation = minElevation <= maxElevation
        if hasElevation {
            minElevationMeters = minElevation
            maxElevationMeters = maxElevation
        }
        (movingSeconds, movingMeters) = (moving.seconds, moving.meters)
        elevationGainMeters = hysteresis.gainMeters
        elevationLossMeters = hysteresis.lossMeters
        (maxSpeed, extent, heartRate, cadence) = otherCore.wait()

        // Slow legs on steep ground: a second look, only where there is a slow leg and elevation.
        if hasSlowLeg && isSteepGroundOn && elevationOverTime.times.count >= 2 {
            pendingSteepGround = SteepGround(
                points: points, times: times, origin: origin, elevation: elevationOverTime,
                distance: distanceOverTime, timerPauses: timerPauses, options: options)
            if appliesSteepGround { applySteepGround() }
        }
    }

    /// Takes the steep-ground rule's second look at the slow legs, if the measurement was asked
    /// to leave it for later (`appliesSteepGround: false`); nothing otherwise.
    ///
    /// Only the timed legs and the moving figures change: a caller may read the points, times,
    /// distances and dropped elevations on another thread meanwhile (``ActivityStats`` shares out
    /// the splits' elevations then).
    mutating func applySteepGround() {
        guard var steepGround = pendingSteepGround else { return }
        pendingSteepGround = nil
        // Most legs move by their speed: only the slow ones are handed to the rule.
        for leg in timedLegs.indices where !timedLegs[leg].isMoving && steepGround.isMoving(timedLegs[leg]) {
            timedLegs[leg].isMoving = true
            movingSeconds += timedLegs[leg].seconds
            movingMeters += timedLegs[leg].meters
        }
    }

    /// Whether `time` lies strictly inside one of `pauses` (sorted, not overlapping): a reading
    /// stamped at the stop or at the restart is not inside.
    static func isInsidePause(_ time: Date, _ pauses: [DateInterval]) -> Bool {
        var cursor = PauseCursor(pauses)
        return cursor.isInsidePause(time)
    }

    /// Index of the first of `pauses` (sorted, not overlapping) that ends after `time`;
    /// `pauses.count` when none does. Ends are sorted as the starts are.
    static func firstPause(endingAfter time: Date, _ pauses: [DateInterval]) -> Int {
        firstPause(endingAfter: time, pauses[...])
    }

    /// ``firstPause(endingAfter:_:)`` within a slice of the pauses: an index of the slice.
    static func firstPause(endingAfter time: Date, _ pauses: ArraySlice<DateInterval>) -> Int {
        var low = pauses.startIndex
        var high = pauses.endIndex
        while low < high {
            let mid = (low + high) / 2
            if pauses[mid].end <= time { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Whether the leg from `start` to `end` overlaps one of `pauses` (sorted, not overlapping) by
    /// more than an instant: a fix stamped at the stop itself still ends a moving leg.
    static func reachesIntoPause(from start: Date, to end: Date, _ pauses: [DateInterval]) -> Bool {
        var cursor = PauseCursor(pauses)
        return cursor.reachesIntoPause(from: start, to: end)
    }

    /// The points' times on the forward-only timeline: their own, or the forward ones
    /// ``TimeOrder`` gives when the course's times go back.
    struct Times {
        let points: [TrackPoint]
        /// ``TimeOrder/forwardTimes(_:)`` of the segment, or `nil` for the points' own times.
        let forward: [Double]?

        /// Point `index`'s time (`nil` for none or a stray one).
        @inline(__always)
        subscript(index: Int) -> Date? {
            let seconds = seconds(at: index)
            return seconds.isNaN ? nil : Date(timeIntervalSinceReferenceDate: seconds)
        }

        /// Point `index`'s time as seconds since 2001-01-01 UTC, NaN for none or a stray one.
        @inline(__always)
        func seconds(at index: Int) -> Double {
            forward?[index] ?? points[index].secondsSinceReferenceDate
        }

        /// The first and last times.
        var first: Date? { points.indices.lazy.compactMap { self[$0] }.first }
        var last: Date? { points.indices.reversed().lazy.compactMap { self[$0] }.first }
    }

    /// Distance from the first point to each point along the segment, from one call into C++.
    ///
    /// The leg lengths are written straight into the result (shifted by one) and summed in place,
    /// so the only allocation is the result itself. Points without a position are left out of
    /// the call (the legs then join their neighbours) and repeat the previous cumulative value.
    private static func cumulativeDistances(of points: [TrackPoint], usesTwoCores: Bool) -> [Double] {
        let count = points.count
        guard count >= 2 else { return [Double](repeating: 0, count: count) }

        // Every point is taken to have a position: a leg from or to one without comes back NaN
        // from C++ (as a leg GeographicLib fails on would), and then the points are measured
        // again below, the positioned ones only.
        var isWholePath = true
        let whole = [Double](unsafeUninitializedCapacity: count) { result, initialized in
            result[0] = 0
            let legs = UnsafeMutableBufferPointer(rebasing: result[1...])
            // Leg lengths in place, then their running sum from `start` on (in order, as always).
            func sum(from start: Int, to end: Int) {
                for index in start..<end {
                    let leg = result[index]
                    if leg.isNaN { isWholePath = false }
                    result[index] = result[index - 1] + (leg.isNaN ? 0 : leg)
                }
            }
            points.withUnsafeBufferPointer { path in
                guard usesTwoCores, count >= 4 else {  // two legs a core at least
                    _ = Geodesic.legLengths(of: path, latitude: \.latitude, longitude: \.longitude, into: legs)
                    sum(from: 1, to: count)
                    return
                }
                // A long segment's legs on two cores, half each: every leg is computed alone, so
                // the lengths are the same. This core sums its half while the other measures the
                // second, then sums that.
                let middle = count / 2
                let secondPath = UnsafeBufferPointer(rebasing: path[middle...])
                let secondLegs = UnsafeMutableBufferPointer(rebasing: legs[middle...])
                _ = InParallel.run(
                    {
                        Geodesic.legLengths(
                            of: secondPath, latitude: \.latitude, longitude: \.longitude, into: secondLegs)
                    },
                    {
                        _ = Geodesic.legLengths(
                            of: UnsafeBufferPointer(rebasing: path[...middle]), latitude: \.latitude,
                            longitude: \.longitude, into: UnsafeMutableBufferPointer(rebasing: legs[..<middle]))
                        sum(from: 1, to: middle + 1)
                    })
                sum(from: middle + 1, to: count)
            }
            initialized = count
        }
        if isWholePath { return whole }

        // Rare (fixes without a position): measure the positioned points, then spread back.
        let positionedIndices = points.indices.filter { hasPosition(points[$0]) }
        let positioned = positionedIndices.map { points[$0] }
        var legs = [Double](repeating: 0, count: max(positioned.count - 1, 0))
        if positioned.count >= 2 {
            legs.withUnsafeMutableBufferPointer { legBuffer in
                _ = positioned.withUnsafeBufferPointer {
                    Geodesic.legLengths(of: $0, latitude: \.latitude, longitude: \.longitude, into: legBuffer)
                }
            }
        }
        var result = [Double](repeating: 0, count: count)
        var nextPositioned = 0
        var total = 0.0
        for index in 0..<count {
            if nextPositioned < positionedIndices.count && positionedIndices[nextPositioned] == index {
                if nextPositioned > 0 {
                    let leg = legs[nextPositioned - 1]
                    total += leg.isNaN ? 0 : leg
                }
                nextPositioned += 1
            }
            result[index] = total
        }
        return result
    }
}
