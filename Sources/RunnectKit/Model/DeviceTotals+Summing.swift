extension DeviceTotals {
    /// The totals of several laps (or activities) added up, figure by figure.
    ///
    /// A figure is the sum over the parts that have it, and `nil` when none has it (never 0).
    /// - Parameters:
    ///   - parts: The laps' or activities' totals.
    ///   - sport: The sport of the whole; `nil` keeps the parts' sport when they all agree.
    /// - Returns: `nil` when no part has any figure and no sport is known.
    public static func summing(_ parts: [DeviceTotals], sport: String? = nil) -> DeviceTotals? {
        func sum(_ figure: KeyPath<DeviceTotals, Double?>) -> Double? {
            let present = parts.compactMap { $0[keyPath: figure] }
            return present.isEmpty ? nil : present.reduce(0, +)
        }
        let sports = Set(parts.compactMap(\.sport))
        let totals = DeviceTotals(
            distanceMeters: sum(\.distanceMeters), elapsedTimeSeconds: sum(\.elapsedTimeSeconds),
            timerTimeSeconds: sum(\.timerTimeSeconds), ascentMeters: sum(\.ascentMeters),
            descentMeters: sum(\.descentMeters), calories: sum(\.calories),
            sport: sport ?? (sports.count == 1 ? sports.first : nil))
        return totals == DeviceTotals() ? nil : totals
    }
}
