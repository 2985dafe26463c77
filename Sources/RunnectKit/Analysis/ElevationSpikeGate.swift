import Foundation

/// Leaves out elevations that move away from the last one kept faster than anyone climbs: the
/// spike gate of ``StatsOptions/elevationSpikeVerticalSpeedMetersPerSecond``.
///
/// The first elevation is kept. A later elevation `e` at time `t` is kept when
/// `|e − e₀| ≤ rate · max(t − t₀, 0) + slack`, `(t₀, e₀)` being the last elevation kept; one left
/// out does not become the reference, so a real shift in level is kept once enough time has
/// passed for the rate to cover it. Without a time on either side there is no rate to check, and
/// the elevation is kept.
struct ElevationSpikeGate {
    /// The fastest vertical speed kept, metres per second; 0 (or less) keeps everything.
    let rateMetersPerSecond: Double
    /// The change always allowed, metres.
    let slackMeters: Double
    private var reference: (time: Date?, elevation: Double)?

    init(rateMetersPerSecond: Double, slackMeters: Double) {
        self.rateMetersPerSecond = rateMetersPerSecond
        self.slackMeters = slackMeters
    }

    /// Takes the next elevation of the segment.
    /// - Returns: Whether it is kept (it is then the new reference).
    mutating func accepts(_ elevation: Double, at time: Date?) -> Bool {
        if rateMetersPerSecond > 0, let reference, let time, let referenceTime = reference.time {
            let allowed = rateMetersPerSecond * max(time.timeIntervalSince(referenceTime), 0) + slackMeters
            guard abs(elevation - reference.elevation) <= allowed else { return false }
        }
        reference = (time, elevation)
        return true
    }
}
