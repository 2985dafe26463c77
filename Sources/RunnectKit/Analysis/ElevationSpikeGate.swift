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
    /// The last elevation kept (NaN before the first) and its time, seconds since 2001-01-01 UTC
    /// (NaN for none).
    private var referenceElevation = Double.nan
    private var referenceSeconds = Double.nan

    init(rateMetersPerSecond: Double, slackMeters: Double) {
        self.rateMetersPerSecond = rateMetersPerSecond
        self.slackMeters = slackMeters
    }

    /// Takes the next elevation of the segment.
    /// - Parameters:
    ///   - elevation: A finite elevation, metres.
    ///   - seconds: Its time as seconds since 2001-01-01 UTC, NaN for none.
    /// - Returns: Whether it is kept (it is then the new reference).
    mutating func accepts(_ elevation: Double, atSeconds seconds: Double) -> Bool {
        if rateMetersPerSecond > 0 && !referenceElevation.isNaN && !seconds.isNaN && !referenceSeconds.isNaN {
            let allowed = rateMetersPerSecond * max(seconds - referenceSeconds, 0) + slackMeters
            guard abs(elevation - referenceElevation) <= allowed else { return false }
        }
        referenceElevation = elevation
        referenceSeconds = seconds
        return true
    }
}
