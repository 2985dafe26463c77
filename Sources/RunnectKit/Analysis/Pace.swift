/// The one rule every pace in Runnect is computed by: time per kilometre, given only over a
/// distance a runner can be said to have covered.
///
/// A pace is `seconds / (meters / 1000)`. Over a few metres that is GPS noise divided by a
/// near-zero length: a watch standing still moves its fix by a few metres, and a run of 10⁻⁹ m
/// would otherwise read 10¹³ s/km. So a distance under ``minimumMeters`` has no pace (`nil`,
/// `null` in JSON, `–` in text), as 0 m never had: ``ActivityStats``' average and moving pace, a
/// ``Split``'s pace, a ``CourseMatch``'s course pace and a stored record's all follow it.
public enum Pace {
    /// The shortest distance with a pace, metres: 10 m.
    ///
    /// The GPS Standard Positioning Service performance standard gives a horizontal error within
    /// 7.8 m (95 %) for one fix: a distance between two fixes shorter than that is within the
    /// noise of either end, and says nothing of a runner moving. The round figure above it is far
    /// below any distance run on purpose (the shortest race is 60 m) and leaves out a
    /// stand-still's drift and the last few metres of a run stopped just past a split boundary.
    public static let minimumMeters = 10.0

    /// Seconds per kilometre of `seconds` over `meters`, or `nil` without a positive, finite time
    /// or under ``minimumMeters`` of distance.
    public static func secondsPerKilometer(seconds: Double?, meters: Double) -> Double? {
        guard let seconds, seconds > 0, seconds.isFinite, meters >= minimumMeters, meters.isFinite else { return nil }
        return seconds / (meters / 1000)
    }
}
