import Foundation

/// A course or a run made ready for ``GPXWriter``, ``TCXWriter`` and ``FITWriter``: the points
/// each format writes, their distances along the path and their times, checked once before a
/// byte is written (so a refused input never leaves half a file).
///
/// A **course** keeps the points with a position; its distances run along the whole path, the
/// hop from one segment to the next included (the runner covers it), and its times are computed
/// at the options' pace from its start time. A **run** keeps its points with their own times
/// (``ExportPlan/Segment/points`` may hold points without a position, which TCX and FIT keep for
/// their time and heart rate); its distances leave the hops out, as the watch's distance does.
struct ExportPlan {
    /// One segment as written: a TCX `<Track>`, a GPX `<trkseg>`, a lap of a run.
    struct Segment {
        let points: [TrackPoint]
        /// Figures and cumulative distances; `nil` when the writer asked for none (GPX).
        let measurement: SegmentMeasurement?
        /// Distance along the export at the segment's first point.
        let offsetMeters: Double
    }

    let kind: ExportKind
    /// One line, without controls or characters XML forbids; never empty.
    let name: String
    /// Without characters XML forbids; `nil` when empty.
    let description: String?
    let segments: [Segment]
    let waypoints: [Waypoint]
    /// Distance along the export at its last point (a course: hops included; a run: not).
    let totalMeters: Double
    /// A course's first time, or a run's first recorded time.
    let startTime: Date
    let paceSecondsPerKilometer: Double
    /// A run's timer pauses: the activity's own, and the gaps between its segments.
    let pauses: [DateInterval]

    /// - Parameters:
    ///   - activity: What is written (its ``Activity/courseSegments``).
    ///   - options: Course or run, name, pace.
    ///   - keepingUnpositioned: A run keeps its points without a position (TCX, FIT).
    ///   - measuring: Compute distances and lap figures (TCX, FIT).
    /// - Throws: ``WriteError/tooFewPoints(positioned:)``, ``WriteError/missingTimes(count:)``,
    ///   ``WriteError/invalidPace(_:)``.
    init(activity: Activity, options: ExportOptions, keepingUnpositioned: Bool, measuring: Bool) throws {
        guard options.paceSecondsPerKilometer.isFinite, options.paceSecondsPerKilometer > 0 else {
            throw WriteError.invalidPace(options.paceSecondsPerKilometer)
        }
        kind = options.kind
        paceSecondsPerKilometer = options.paceSecondsPerKilometer
        let keepAll = keepingUnpositioned && options.kind == .run
        var kept: [[TrackPoint]] = []
        var positioned = 0
        for points in activity.courseSegments {
            let count = points.reduce(0) { $0 + (SegmentMeasurement.hasPosition($1) ? 1 : 0) }
            positioned += count
            // The array itself when nothing is dropped: no copy of a long track.
            let segment = keepAll || count == points.count ? points : points.filter(SegmentMeasurement.hasPosition)
            if !segment.isEmpty { kept.append(segment) }
        }
        guard positioned >= 2 else { throw WriteError.tooFewPoints(positioned: positioned) }
        if options.kind == .run {
            let untimed = kept.reduce(0) { total, points in total + points.reduce(0) { $0 + ($1.time == nil ? 1 : 0) } }
            guard untimed == 0 else { throw WriteError.missingTimes(count: untimed) }
        }

        let fallbackName = options.kind == .course ? "Course" : "Run"
        let oneLine = XMLText.oneLine(options.name ?? activity.displayName ?? fallbackName)
        name = oneLine.isEmpty ? fallbackName : oneLine
        let text = (options.description ?? activity.metadata.description).map { description in
            String(String.UnicodeScalarView(description.unicodeScalars.filter(XMLText.isAllowed)))
        }
        description = text?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == false ? text : nil
        waypoints = activity.waypoints.filter { SegmentMeasurement.hasPosition($0.point) }

        var segments: [Segment] = []
        var offset = 0.0
        var previousEnd: TrackPoint?
        for points in kept {
            let measurement = measuring ? SegmentMeasurement(points: points, options: StatsOptions()) : nil
            if options.kind == .course, let end = previousEnd, let start = points.first {
                offset += Geodesic.distance(from: end.coordinate, to: start.coordinate) ?? 0
            }
            segments.append(Segment(points: points, measurement: measurement, offsetMeters: offset))
            offset += measurement?.distanceMeters ?? 0
            previousEnd = points.last { SegmentMeasurement.hasPosition($0) }
        }
        self.segments = segments
        totalMeters = offset

        let firstTime = kept.lazy.flatMap { $0 }.compactMap(\.time).first
        if options.kind == .run {
            startTime = firstTime!
            var pauses = activity.timerPauses
            for (before, after) in zip(kept, kept.dropFirst()) {
                if let end = before.last?.time, let start = after.first?.time, start > end {
                    pauses.append(DateInterval(start: end, end: start))
                }
            }
            self.pauses = pauses.mergedInTimeOrder()
        } else {
            startTime = options.startTime ?? ExportOptions.fallbackStartTime
            pauses = []
        }
    }

    /// Distance along the export at point `index` of segment `segment` (needs `measuring`).
    @inline(__always)
    func meters(_ segment: Int, _ index: Int) -> Double {
        segments[segment].offsetMeters + segments[segment].measurement!.cumulativeMeters[index]
    }

    /// The time of point `index` of segment `segment`: a run's own, or a course's at its pace
    /// (needs `measuring`).
    @inline(__always)
    func time(_ segment: Int, _ index: Int) -> Date {
        if kind == .run { return segments[segment].points[index].time! }
        return time(atMeters: meters(segment, index))
    }

    /// A course's time at a distance along it.
    func time(atMeters meters: Double) -> Date {
        startTime.addingTimeInterval(meters / 1000 * paceSecondsPerKilometer)
    }

    /// The time of the last point.
    var endTime: Date {
        let last = segments.count - 1
        return time(last, segments[last].points.count - 1)
    }

    /// The first and last positioned points.
    var firstPosition: TrackPoint { segments.lazy.flatMap(\.points).first(where: SegmentMeasurement.hasPosition)! }
    var lastPosition: TrackPoint {
        segments.reversed().lazy.compactMap { $0.points.last(where: SegmentMeasurement.hasPosition) }.first!
    }
}
