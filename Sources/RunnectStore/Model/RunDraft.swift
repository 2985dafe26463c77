import Foundation
import RunnectKit

/// What a timed run's record needs beyond its course draft: the run indexed for matching (built
/// on the drafting thread), and the figures the record row keeps apart.
struct RunDraft: Sendable {
    /// How the record is linked.
    let matching: RunMatching
    /// The run, indexed against courses.
    let matcher: CourseMatcher
    /// The run's extent, widened by the match distance: the courses to try overlap it.
    let searchBox: Bounds
    /// The run's first time.
    let startTime: Date
    /// The watch's own timer total.
    let deviceTimerSeconds: Double?

    /// The draft of a run: `nil` unless the activity is a track with times.
    init?(_ activity: Activity, stats: ActivityStats, matching: RunMatching) {
        guard !activity.tracks.isEmpty, let startTime = stats.startTime, let bounds = stats.bounds,
            stats.elapsedTimeSeconds ?? 0 > 0
        else { return nil }
        self.matching = matching
        self.startTime = startTime
        matcher = CourseMatcher(run: activity, options: matching.options)
        deviceTimerSeconds = activity.deviceTotals?.timerTimeSeconds
        searchBox = Self.widened(bounds, byMeters: matching.options.matchDistanceMeters)
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
