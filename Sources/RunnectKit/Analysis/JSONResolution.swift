/// The resolution figures are written with in JSON. Digits finer than these are floating-point
/// noise, not data (`10.299999999999999` m of climb is 10.3 m); the figures themselves keep full
/// precision in the API.
enum JSONResolution {
    /// Millimetres.
    static func meters(_ value: Double?) -> Double? { rounded(value, 1e3) }
    /// Milliseconds.
    static func seconds(_ value: Double?) -> Double? { rounded(value, 1e3) }
    /// Hundredths of a second per kilometre.
    static func pace(_ value: Double?) -> Double? { rounded(value, 1e2) }
    /// Millimetres per second.
    static func speed(_ value: Double?) -> Double? { rounded(value, 1e3) }
    /// Tenths of a beat or step per minute.
    static func rate(_ value: Double?) -> Double? { rounded(value, 1e1) }

    private static func rounded(_ value: Double?, _ scale: Double) -> Double? {
        value.map { ($0 * scale).rounded() / scale }
    }
}
