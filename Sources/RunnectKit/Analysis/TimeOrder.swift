import Foundation

/// Where the timestamps of a course go backwards or jump ahead, and the forward-only timeline the
/// figures are measured on.
///
/// The timed points of all segments are taken in document order. Where one is earlier than the
/// timed point before it, one of two things happened, told apart by what follows:
///
/// - **A stray timestamp**: at most ``maximumStrayPoints`` points are out of line with the points
///   on both sides of them, which agree with each other (one fix stamped a year back, or a year
///   ahead, in the middle of a run). Their times are left out; the points, their distance,
///   heart rate and elevation stay.
/// - **A clock step**: the clock was set back and runs on from there (a GPS week rollover, a
///   local-time change). The leg across the step counts as taking no time; the time on either
///   side counts.
///
/// Where a timed point is later than the one before it *in the same segment* by more than any
/// pause can last (``forwardStepLimitSeconds(deviceTotals:)``: the device's own time and a day, or
/// a year without one), the clock was set forward: the leg across that step counts as no time too
/// (a clock jumping to 2085 at the end of a run, or fixes stamped at an epoch before the clock was
/// set). A step between segments is never one: a new segment is a new recording, and one file may
/// hold recordings days or years apart.
///
/// The timeline then only moves forward: each point's time is the time of the one before plus
/// the forward time between them, none across a clock step. For a file whose times never go back
/// nor jump ahead it is the file's own times, and this type changes nothing.
struct TimeOrder {
    /// The most consecutive points taken as stray timestamps; a longer stretch is a clock step.
    static let maximumStrayPoints = 5
    /// Warnings kept per course; the rest are counted in one more line.
    static let maximumWarnings = 20
    /// The longest step forward within a segment taken as time that passed, for a file without
    /// the device's own time: 366 days. No recording pauses for a year between two fixes; the
    /// clock errors that jump ahead are years to decades (GPS week rollover, 19.6 years; FIT's
    /// epoch, 1989; Unix's, 1970; a timestamp in 2085).
    static let maximumPauseSeconds = 366 * 86_400.0
    /// How much longer than the device's own time a step forward may be: a day, for totals that
    /// leave a part out (a lap without the device's time, a watch paused overnight whose total
    /// leaves the pause out).
    static let deviceTimeMarginSeconds = 86_400.0

    /// The longest step forward between two timed points of one segment that counts as time that
    /// passed: the device's own time (its elapsed time, pauses included, or else its timer time)
    /// and ``deviceTimeMarginSeconds``, never more than ``maximumPauseSeconds``.
    ///
    /// No step within one recording can be longer than the whole recording, which is what the
    /// device's total says; a day more leaves room for totals that miss a part.
    static func forwardStepLimitSeconds(deviceTotals: DeviceTotals?) -> Double {
        guard let device = deviceSeconds(deviceTotals) else { return maximumPauseSeconds }
        return min(maximumPauseSeconds, device + deviceTimeMarginSeconds)
    }

    /// The device's own time: the larger of its elapsed and timer times, when it gives one.
    private static func deviceSeconds(_ totals: DeviceTotals?) -> Double? {
        func usable(_ seconds: Double?) -> Double? { seconds.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } }
        let elapsed = usable(totals?.elapsedTimeSeconds)
        let timer = usable(totals?.timerTimeSeconds)
        return elapsed.map { max($0, timer ?? $0) } ?? timer
    }

    /// A timed point: its segment, its index in the segment and its time.
    ///
    /// 16 bytes: a course whose times go back holds one per timed point while it is sorted out.
    struct Place {
        private var segment32: Int32
        private var point32: Int32
        var time: Date

        init(segment: Int, point: Int, time: Date) {
            segment32 = Int32(segment)
            point32 = Int32(point)
            self.time = time
        }

        var segment: Int { Int(segment32) }
        var point: Int { Int(point32) }
    }

    /// One step back in time, or one jump ahead, from `from` to `to`, and what was made of it.
    struct Step {
        var from: Place
        var to: Place
        /// Points whose times are left out (empty for a clock step).
        var strays: [Place]
        /// Whether the step jumps ahead (a clock set forward) rather than back.
        var isForward = false
    }

    /// Every step back and jump ahead, in document order; empty when the times never go back nor
    /// jump ahead.
    private(set) var steps: [Step] = []
    /// The longest step forward within a segment that counts as time that passed
    /// (``forwardStepLimitSeconds(deviceTotals:)``).
    let forwardLimitSeconds: Double
    /// The device's own time the limit was found from, if any (for the warnings).
    private let deviceSeconds: Double?

    /// The times of a run of points in document order, as far as `init(segments:)`'s first
    /// check goes for a file without the device's own time (a GPX file): whether they never go
    /// back nor jump ahead by more than ``maximumPauseSeconds`` within a segment, and the first
    /// and last.
    struct Span {
        private(set) var isForward = true
        private(set) var first: Date?
        private(set) var last: Date?

        /// Adds the points of one segment (or of the part of one a split read holds).
        mutating func add(_ points: [TrackPoint]) {
            var previousInSegment: Date?
            for point in points {
                guard let time = point.time else { continue }
                if let last, time < last { isForward = false }
                if let previousInSegment, time.timeIntervalSince(previousInSegment) > maximumPauseSeconds {
                    isForward = false
                }
                if first == nil { first = time }
                last = time
                previousInSegment = time
            }
        }

        /// Whether the points of `self` then those of `next` never go back in time nor jump ahead,
        /// as `TimeOrder(segments:)` would find of them joined (then it has no steps). A jump
        /// from one to the other counts whether or not they meet inside a segment.
        func followed(by next: Span) -> Bool {
            guard isForward, next.isForward else { return false }
            guard let last, let nextFirst = next.first else { return true }
            return !(nextFirst < last) && nextFirst.timeIntervalSince(last) <= maximumPauseSeconds
        }
    }

    /// Finds the steps back and the jumps ahead of a course's segments.
    ///
    /// - Parameters:
    ///   - segments: The course's segments, in order.
    ///   - deviceTotals: What the device says of the whole course: its elapsed or timer time
    ///     bounds the steps forward (see ``forwardStepLimitSeconds(deviceTotals:)``).
    /// - Complexity: O(n) for n points: two comparisons per timed point when the times never go
    ///   back nor jump ahead, and at most ``maximumStrayPoints`` more per step back.
    init(segments: [[TrackPoint]], deviceTotals: DeviceTotals? = nil) {
        let limit = Self.forwardStepLimitSeconds(deviceTotals: deviceTotals)
        forwardLimitSeconds = limit
        deviceSeconds = Self.deviceSeconds(deviceTotals)
        // The common case, times that never go back nor jump ahead, costs two comparisons per
        // point and nothing else. (NaN, a point without a time, compares false.)
        var previous = -Double.infinity
        var isForward = true
        search: for points in segments {
            var previousInSegment = Double.infinity  // no jump from before the segment
            for point in points {
                let time = point.secondsSinceReferenceDate
                if time < previous || time - previousInSegment > limit {
                    isForward = false
                    break search
                }
                if !time.isNaN {
                    previous = time
                    previousInSegment = time
                }
            }
        }
        guard !isForward else { return }

        var timed: [Place] = []
        timed.reserveCapacity(segments.reduce(0) { $0 + $1.count })
        for segment in segments.indices {
            segments[segment].withUnsafeBufferPointer { points in
                for index in points.indices where !points[index].secondsSinceReferenceDate.isNaN {
                    let time = Date(timeIntervalSinceReferenceDate: points[index].secondsSinceReferenceDate)
                    timed.append(Place(segment: segment, point: index, time: time))
                }
            }
        }

        // `kept` holds indices into `timed` whose times are used, in order.
        var kept: [Int32] = []
        kept.reserveCapacity(timed.count)
        var next = 0
        while next < timed.count {
            guard let last = kept.last.map(Int.init), timed[next].time < timed[last].time else {
                kept.append(Int32(next))
                next += 1
                continue
            }
            let lastTime = timed[last].time
            let time = timed[next].time
            // Back, then forward again soon: the points before the return are strays.
            var ahead: Int?
            for candidate in (next + 1)..<min(next + 1 + Self.maximumStrayPoints, timed.count)
            where timed[candidate].time >= lastTime {
                ahead = candidate
                break
            }
            // Forward too far, then back in line: the points after the last one in line are strays.
            var behind: Int?
            for position in stride(
                from: kept.count - 2, through: max(kept.count - 1 - Self.maximumStrayPoints, 0), by: -1)
            where timed[Int(kept[position])].time <= time {
                behind = position
                break
            }
            let aheadCount = ahead.map { $0 - next } ?? Int.max
            let behindCount = behind.map { kept.count - 1 - $0 } ?? Int.max
            var step = Step(from: timed[last], to: timed[next], strays: [])
            if let ahead, aheadCount <= behindCount {
                step.strays = timed[next..<ahead].map { $0 }
                next = ahead
            } else if let behind {
                step.strays = kept[(behind + 1)...].map { timed[Int($0)] }
                kept.removeSubrange((behind + 1)...)
            } else {
                kept.append(Int32(next))
                next += 1
            }
            steps.append(step)
        }

        // Jumps ahead: consecutive kept times of one segment further apart than any pause lasts.
        var jumps: [Step] = []
        for position in kept.indices.dropFirst() {
            let from = timed[Int(kept[position - 1])]
            let to = timed[Int(kept[position])]
            if from.segment == to.segment && to.time.timeIntervalSince(from.time) > limit {
                jumps.append(Step(from: from, to: to, strays: [], isForward: true))
            }
        }
        if !jumps.isEmpty {
            steps = (steps + jumps).sorted {
                ($0.to.segment, $0.to.point, $0.isForward ? 1 : 0) < ($1.to.segment, $1.to.point, $1.isForward ? 1 : 0)
            }
        }
    }

    /// The segments on the forward-only timeline: stray times removed, and every point after a
    /// clock step moved on by the step, so no leg goes back or jumps ahead. The segments
    /// themselves when the times never go back nor jump ahead.
    func forwardSegments(_ segments: [[TrackPoint]]) -> [[TrackPoint]] {
        guard let times = forwardTimes(segments) else { return segments }
        var result = segments
        for segment in result.indices {
            for index in result[segment].indices {
                result[segment][index].secondsSinceReferenceDate = times[segment][index]
            }
        }
        return result
    }

    /// The times of ``forwardSegments(_:)`` alone, as seconds since the reference date (NaN for a
    /// point without a time or with a stray one), one array per segment; `nil` when the times never
    /// go back nor jump ahead and the points' own times are the timeline.
    ///
    /// What the stats measure on: 8 bytes a point instead of a copy of every point.
    func forwardTimes(_ segments: [[TrackPoint]]) -> [[Double]]? {
        guard !steps.isEmpty else { return nil }
        var isStray = Set<PointIndex>()
        var isAfterJump = Set<PointIndex>()
        for step in steps {
            for stray in step.strays { isStray.insert(PointIndex(segment: stray.segment, point: stray.point)) }
            if step.isForward { isAfterJump.insert(PointIndex(segment: step.to.segment, point: step.to.point)) }
        }
        var previous: (recorded: Double, forward: Double)?
        return segments.indices.map { segment in
            let points = segments[segment]
            return [Double](unsafeUninitializedCapacity: points.count) { times, initialized in
                for index in points.indices {
                    let time = points[index].secondsSinceReferenceDate
                    times[index] = time
                    guard !time.isNaN else { continue }
                    if !isStray.isEmpty && isStray.contains(PointIndex(segment: segment, point: index)) {
                        times[index] = .nan
                        continue
                    }
                    var forward = time
                    if let previous {
                        let isJump =
                            !isAfterJump.isEmpty && isAfterJump.contains(PointIndex(segment: segment, point: index))
                        forward = previous.forward + (isJump ? 0 : max(time - previous.recorded, 0))
                    }
                    times[index] = forward
                    previous = (time, forward)
                }
                initialized = points.count
            }
        }
    }

    /// A point of the course: its segment and its index in the segment.
    private struct PointIndex: Hashable {
        var segment: Int
        var point: Int
    }

    /// One warning per step back or jump ahead (at most ``maximumWarnings``, then a count of the
    /// rest), naming the points and times. Segments and points are numbered from 1, segments as in
    /// `runnect stats --segments`.
    var warnings: [String] {
        var lines = steps.prefix(Self.maximumWarnings).map(warning)
        if steps.count > Self.maximumWarnings {
            let rest = steps.dropFirst(Self.maximumWarnings)
            let kind = rest.contains(where: \.isForward) ? "back or ahead" : "back"
            lines.append("and \(rest.count) more step(s) \(kind) in time")
        }
        return lines
    }

    private func warning(_ step: Step) -> String {
        let from = "from \(RunnerFormat.timestamp(step.from.time)) (\(Self.label(step.from)))"
        let to = "to \(RunnerFormat.timestamp(step.to.time))"
        if step.isForward {
            let ahead = Self.amount(step.to.time.timeIntervalSince(step.from.time))
            let device = forwardLimitSeconds < Self.maximumPauseSeconds ? deviceSeconds : nil
            let bound = device.map { "the device's own \(RunnerFormat.duration(seconds: $0)) and a day" } ?? "a year"
            return "\(Self.label(step.to)): the time jumps ahead \(ahead), \(from) \(to), "
                + "more than any pause can last (\(bound)); that leg counts as no time"
        }
        var text =
            "\(Self.label(step.to)): the time goes back \(Self.amount(step.from.time.timeIntervalSince(step.to.time))), \(from) \(to); "
        switch step.strays.count {
        case 0: text += "that leg counts as no time"
        case 1: text += "the time of \(Self.label(step.strays[0])) is left out"
        default:
            text += "the times of \(step.strays.count) points from \(Self.label(step.strays[0])) are left out"
        }
        return text
    }

    /// A step's size: `0.5 s`, `0:01:00`, `364 day(s) 23:59:57`.
    private static func amount(_ seconds: Double) -> String {
        let days = Int(seconds / 86_400)
        return seconds < 1
            ? String(format: "%.3g s", seconds)
            : days > 0
                ? "\(days) day(s) \(RunnerFormat.duration(seconds: seconds - Double(days) * 86_400))"
                : RunnerFormat.duration(seconds: seconds)
    }

    private static func label(_ place: Place) -> String {
        "segment \(place.segment + 1), point \(place.point + 1)"
    }
}
