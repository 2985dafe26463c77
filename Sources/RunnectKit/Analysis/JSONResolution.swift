/// The resolution figures are written with in JSON. Digits finer than these are floating-point
/// noise, not data (`10.299999999999999` m of climb is 10.3 m); the figures themselves keep full
/// precision in the API.
public enum JSONResolution {
    /// Millimetres.
    public static func meters(_ value: Double?) -> Double? { rounded(value, 1e3) }
    /// Milliseconds.
    public static func seconds(_ value: Double?) -> Double? { rounded(value, 1e3) }
    /// Hundredths of a second per kilometre.
    public static func pace(_ value: Double?) -> Double? { rounded(value, 1e2) }
    /// Millimetres per second.
    public static func speed(_ value: Double?) -> Double? { rounded(value, 1e3) }
    /// Tenths of a beat or step per minute.
    public static func rate(_ value: Double?) -> Double? { rounded(value, 1e1) }

    private static func rounded(_ value: Double?, _ scale: Double) -> Double? {
        value.map { ($0 * scale).rounded() / scale }
    }
}
