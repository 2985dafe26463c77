import Foundation

extension Activity {
    /// Whether the activity is a recorded run rather than a course to follow: its
    /// ``courseSegments`` are track points (not a planned route's), every one of them has a time,
    /// and those times advance, its ``ActivityStats/elapsedTimeSeconds`` more than 0 to the
    /// millisecond (as ``ActivityStats`` writes it in JSON).
    ///
    /// A route, tapped points, an untimed or partly timed track, and a track whose every point
    /// carries the same time (a planner stamping the moment it saved the file) are courses. A run
    /// can be written as a run by ``GPXWriter``, ``TCXWriter`` and ``FITWriter`` (``ExportKind/run``
    /// needs a time at every point it writes), and `runnect` uses this one rule both to keep an
    /// imported run as a record and to choose what a course file written from a file holds.
    ///
    /// - Complexity: O(n) for n points: one pass for the times and, when all are present, one to
    ///   put them in order as the stats do (``ActivityStats/elapsedTimeSeconds``).
    public var isRun: Bool {
        guard hasTimeAtEveryTrackPoint else { return false }
        let segments = courseSegments
        let forward = TimeOrder(segments: segments, deviceTotals: deviceTotals).forwardTimes(segments)
        func seconds(_ segment: Int, _ index: Int) -> Double {
            forward?[segment][index] ?? segments[segment][index].secondsSinceReferenceDate
        }
        // The first and last times left on the timeline (a stray one has none).
        var first = Double.nan
        var last = Double.nan
        for segment in segments.indices {
            for index in segments[segment].indices {
                let time = seconds(segment, index)
                guard !time.isNaN else { continue }
                if first.isNaN { first = time }
                last = time
            }
        }
        return Self.timesAdvance(elapsedTimeSeconds: last - first)
    }

    /// ``isRun`` with the elapsed time already measured: `stats` must be this activity's own
    /// (``stats(options:)``, at full or JSON resolution), which saves the pass over the times.
    package func isRun(measuredAs stats: ActivityStats) -> Bool {
        hasTimeAtEveryTrackPoint && Self.timesAdvance(elapsedTimeSeconds: stats.elapsedTimeSeconds)
    }

    /// Whether ``courseSegments`` are track points, at least one, each with a time.
    private var hasTimeAtEveryTrackPoint: Bool {
        guard !isMeasuredOnRoutes else { return false }
        let points = courseSegments.joined()
        return !points.isEmpty && points.allSatisfy { $0.time != nil }
    }

    /// An elapsed time of at least a millisecond once rounded as the stats' JSON rounds it, so
    /// that the figure a store keeps and the one measured afresh give the same answer.
    private static func timesAdvance(elapsedTimeSeconds: Double?) -> Bool {
        (JSONResolution.seconds(elapsedTimeSeconds) ?? 0) > 0
    }
}
