import Foundation

/// Where the timestamps of a course go backwards, and the forward-only timeline the figures are
/// measured on.
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
/// The timeline then only moves forward: each point's time is the time of the one before plus
/// the forward time between them. For a file whose times never go back it is the file's own
/// times, and this type changes nothing.
struct TimeOrder {
    /// The most consecutive points taken as stray timestamps; a longer stretch is a clock step.
    static let maximumStrayPoints = 5
    /// Warnings kept per course; the rest are counted in one more line.
    static let maximumWarnings = 20

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

    /// One step back in time, from `from` to `to`, and what was made of it.
    struct Step {
        var from: Place
        var to: Place
        /// Points whose times are left out (empty for a clock step).
        var strays: [Place]
    }

    /// Every step back, in document order; empty when the times never go back.
    private(set) var steps: [Step] = []

    /// The times of a run of points in document order, as far as `init(segments:)`'s first
    /// check goes: whether they never go back, and the first and last.
    struct Span {
        private(set) var isForward = true
        private(set) var first: Date?
        private(set) var last: Date?

        mutating func add(_ points: [TrackPoint]) {
            for point in points {
                guard let time = point.time else { continue }
                if let last, time < last { isForward = false }
                if first == nil { first = time }
                last = time
            }
        }

        /// Whether the points of `self` then those of `next` never go back in time, as
        /// `TimeOrder(segments:)` would find of them joined (then it has no steps).
        func followed(by next: Span) -> Bool {
            guard isForward, next.isForward else { return false }
            guard let last, let nextFirst = next.first else { return true }
            return !(nextFirst < last)
        }
    }

    /// Finds the steps back of a course's segments.
    ///
    /// - Complexity: O(n) for n points: one comparison per timed point when the times never go
    ///   back, and at most ``maximumStrayPoints`` more per step back.
    init(segments: [[TrackPoint]]) {
        // The common case, times that never go back, costs one comparison per point and nothing else.
        // (NaN, a point without a time, compares false.)
        var previous = -Double.infinity
        var isForward = true
        search: for points in segments {
            for point in points {
                let time = point.secondsSinceReferenceDate
                if time < previous {
                    isForward = false
                    break search
                }
                if !time.isNaN { previous = time }
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
    }

    /// The segments on the forward-only timeline: stray times removed, and every point after a
    /// clock step moved on by the step, so no leg goes back. The segments themselves when the
    /// times never go back.
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
    /// go back and the points' own times are the timeline.
    ///
    /// What the stats measure on: 8 bytes a point instead of a copy of every point.
    func forwardTimes(_ segments: [[TrackPoint]]) -> [[Double]]? {
        guard !steps.isEmpty else { return nil }
        var isStray = Set<PointIndex>()
        for step in steps {
            for stray in step.strays { isStray.insert(PointIndex(segment: stray.segment, point: stray.point)) }
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
                    if let previous { forward = previous.forward + max(time - previous.recorded, 0) }
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

    /// One warning per step back (at most ``maximumWarnings``, then a count of the rest), naming
    /// the points and times. Segments and points are numbered from 1, segments as in
    /// `runnect stats --segments`.
    var warnings: [String] {
        var lines = steps.prefix(Self.maximumWarnings).map(Self.warning)
        if steps.count > Self.maximumWarnings {
            lines.append("and \(steps.count - Self.maximumWarnings) more step(s) back in time")
        }
        return lines
    }

    private static func warning(_ step: Step) -> String {
        let back = step.from.time.timeIntervalSince(step.to.time)
        let days = Int(back / 86_400)
        let amount =
            back < 1
            ? String(format: "%.3g s", back)
            : days > 0
                ? "\(days) day(s) \(RunnerFormat.duration(seconds: back - Double(days) * 86_400))"
                : RunnerFormat.duration(seconds: back)
        var text =
            "\(label(step.to)): the time goes back \(amount), from \(RunnerFormat.timestamp(step.from.time)) "
            + "(\(label(step.from))) to \(RunnerFormat.timestamp(step.to.time)); "
        switch step.strays.count {
        case 0: text += "that leg counts as no time"
        case 1: text += "the time of \(label(step.strays[0])) is left out"
        default:
            text += "the times of \(step.strays.count) points from \(label(step.strays[0])) are left out"
        }
        return text
    }

    private static func label(_ place: Place) -> String {
        "segment \(place.segment + 1), point \(place.point + 1)"
    }
}
