import Foundation
import RunnectKit

/// What a timed run's record needs beyond its course draft: the run indexed for matching (built
/// on the drafting thread), and the figures the record row keeps apart.
struct RunDraft: Sendable {
    /// How the record is linked.
    let matching: RunMatching
    /// The run, indexed against courses.
    let matcher: CourseMatcher
    /// The run's extent, widened by the match distance: a course the run follows starts and
    /// finishes in it.
    let searchBox: Bounds
    /// The run in pieces of ``corridorPiecePoints`` points, each piece's box widened by the
    /// match distance (and a metre): a course the run follows starts in one of them. Together
    /// they cover a few square kilometres where ``searchBox`` may cover tens.
    let corridor: [Bounds]

    /// Points per piece of ``corridor``: about 300 m of a run recorded every second.
    static let corridorPiecePoints = 128
    /// The run's first time.
    let startTime: Date
    /// The watch's own timer total.
    let deviceTimerSeconds: Double?

    /// The draft of a run: `nil` unless the activity is one (RunnectKit's `Activity/isRun`, the
    /// rule `runnect export` follows too), `stats` being its own.
    init?(_ activity: Activity, stats: ActivityStats, matching: RunMatching) {
        guard activity.isRun(measuredAs: stats), let startTime = stats.startTime, let bounds = stats.bounds
        else { return nil }
        self.matching = matching
        self.startTime = startTime
        matcher = CourseMatcher(run: activity, options: matching.options)
        deviceTimerSeconds = activity.deviceTotals?.timerTimeSeconds
        searchBox = Self.widened(bounds, byMeters: matching.options.matchDistanceMeters)
        corridor = Self.corridor(of: activity, widenedBy: matching.options.matchDistanceMeters + 1)
    }

    /// Boxes of consecutive pieces of the run's points (its course segments joined, as the
    /// matcher joins them), each sharing its last point with the next piece's first, so that
    /// every leg lies in one box.
    static func corridor(of activity: Activity, widenedBy meters: Double) -> [Bounds] {
        let points = activity.courseSegments.joined().filter {
            $0.latitude.isFinite && $0.longitude.isFinite && abs($0.latitude) <= 90
        }
        return stride(from: 0, to: max(points.count - 1, 1), by: corridorPiecePoints).compactMap { first in
            let piece = Array(points[first..<min(first + corridorPiecePoints + 1, points.count)])
            return Bounds(enclosing: [piece]).map { widened($0, byMeters: meters) }
        }
    }

    /// `bounds` grown by `meters` on every side (every longitude near a pole or across the
    /// antimeridian).
    static func widened(_ bounds: Bounds, byMeters meters: Double) -> Bounds {
        // A degree of latitude is at least 110.5 km; of longitude, that times the cosine.
        let dLat = meters / 110_500
        let minLat = max(-90, bounds.minLatitude - dLat)
        let maxLat = min(90, bounds.maxLatitude + dLat)
        let cosine = cos(max(abs(minLat), abs(maxLat)) * .pi / 180)
        guard !bounds.crossesAntimeridian, cosine > 0.01 else {
            return Bounds(minLatitude: minLat, minLongitude: -180, maxLatitude: maxLat, maxLongitude: 180)
        }
        let dLon = dLat / cosine
        let west = bounds.minLongitude - dLon
        let east = bounds.maxLongitude + dLon
        guard west >= -180, east <= 180 else {
            return Bounds(minLatitude: minLat, minLongitude: -180, maxLatitude: maxLat, maxLongitude: 180)
        }
        return Bounds(minLatitude: minLat, minLongitude: west, maxLatitude: maxLat, maxLongitude: east)
    }
}
