/// The unit a runner reads distances and paces in: kilometres, or miles.
///
/// Only what is printed for people changes: figures in JSON and in the store stay metric.
public enum DistanceUnit: String, Sendable, CaseIterable {
    /// Kilometres: `10.14 km`, `5'44"/km`.
    case kilometers = "km"
    /// International miles of 1,609.344 m: `6.30 mi`, `9'14"/mi`.
    case miles = "mi"

    /// The unit's length, metres.
    public var meters: Double {
        switch self {
        case .kilometers: return 1000
        case .miles: return 1609.344
        }
    }

    /// What is written after a distance and a pace: `km`, `mi`.
    public var symbol: String { rawValue }
}
