import Foundation

/// How runners write paces, durations and distances: `5'03"`, `0:52:10`, `10.02 km`.
///
/// Every function takes an optional and writes `–` (an en dash) for `nil` or a value that cannot
/// be shown (not finite, or a negative pace), so a missing figure is never printed as 0.
public enum RunnerFormat {
    /// What is written for a missing value.
    public static let missing = "–"

    /// A pace as minutes and seconds per kilometre: `5'03"`.
    ///
    /// Rounded to the nearest second; minutes are not carried into hours, so a slow walk reads
    /// `65'00"`.
    /// - Parameter secondsPerKilometer: The pace, seconds per kilometre.
    /// - Returns: The pace, or `–` for `nil`, a negative or a non-finite pace.
    public static func pace(secondsPerKilometer: Double?) -> String {
        guard let secondsPerKilometer, secondsPerKilometer.isFinite, secondsPerKilometer >= 0,
            secondsPerKilometer < Double(Int.max / 2)
        else { return missing }
        let seconds = Int(secondsPerKilometer.rounded())
        return "\(seconds / 60)'\(twoDigits(seconds % 60))\""
    }

    /// A duration as hours, minutes and seconds: `0:52:10`, `1:02:03`, `26:00:00`.
    ///
    /// Rounded to the nearest second. A negative duration (from times out of order) keeps its
    /// sign: `-0:00:05`.
    /// - Parameter seconds: The duration, seconds.
    /// - Returns: The duration, or `–` for `nil` or a non-finite value.
    public static func duration(seconds: Double?) -> String {
        guard let seconds, seconds.isFinite, abs(seconds) < Double(Int.max / 2) else { return missing }
        let whole = Int(abs(seconds).rounded())
        let sign = seconds < 0 && whole > 0 ? "-" : ""
        return "\(sign)\(whole / 3600):\(twoDigits(whole / 60 % 60)):\(twoDigits(whole % 60))"
    }

    /// A distance in kilometres with two decimals: `10.02 km`.
    ///
    /// - Parameter meters: The distance, metres.
    /// - Returns: The distance, or `–` for `nil` or a non-finite value.
    public static func kilometers(meters: Double?) -> String {
        guard let meters, meters.isFinite else { return missing }
        // Formatted without a locale: always a full stop, never a decimal comma.
        return String(format: "%.2f km", meters / 1000)
    }

    /// A distance in `unit` with two decimals: `10.14 km`, `6.30 mi`.
    ///
    /// - Parameters:
    ///   - meters: The distance, metres.
    ///   - unit: Kilometres (as ``kilometers(meters:)``) or miles.
    /// - Returns: The distance, or `–` for `nil` or a non-finite value.
    public static func distance(meters: Double?, in unit: DistanceUnit) -> String {
        guard let meters, meters.isFinite else { return missing }
        return String(format: "%.2f ", meters / unit.meters) + unit.symbol
    }

    /// A pace as minutes and seconds per `unit`: `5'44"` a kilometre is `9'14"` a mile.
    ///
    /// - Parameters:
    ///   - secondsPerKilometer: The pace, seconds per kilometre (as stored and in JSON).
    ///   - unit: Per kilometre (as ``pace(secondsPerKilometer:)``) or per mile.
    /// - Returns: The pace without its unit, or `–` for `nil`, a negative or a non-finite pace.
    public static func pace(secondsPerKilometer: Double?, per unit: DistanceUnit) -> String {
        pace(secondsPerKilometer: secondsPerKilometer.map { $0 * unit.meters / 1000 })
    }

    /// A point in time as an ISO 8601 UTC timestamp: `2024-04-07T06:00:00Z`.
    ///
    /// Rounded to the millisecond; fractional seconds appear only when there are some
    /// (`2024-04-07T06:00:05.5Z`), the same form the readers accept and the writers produce.
    public static func timestamp(_ date: Date) -> String {
        ISO8601Format.string(secondsSince1970: date.timeIntervalSince1970)
    }

    /// The instant of a timestamp written by ``timestamp(_:)``: any ISO 8601 `dateTime` with a
    /// zone; `nil` for anything else (a zone-less time included).
    public static func date(fromTimestamp text: String) -> Date? {
        guard let parsed = ISO8601Parser.parse(text), parsed.hadZone else { return nil }
        return Date(timeIntervalSince1970: parsed.secondsSince1970)
    }

    /// Reads an optional timestamp written by ``timestamp(_:)`` (any ISO 8601 `dateTime` with a
    /// zone is accepted).
    public static func decodeTimestamp<Key: CodingKey>(
        _ container: KeyedDecodingContainer<Key>,
        forKey key: Key
    ) throws -> Date? {
        guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let date = date(fromTimestamp: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "Not an ISO 8601 UTC timestamp: \(text)")
        }
        return date
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
