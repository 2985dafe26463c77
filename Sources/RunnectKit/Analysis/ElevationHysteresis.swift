/// Elevation gain and loss that ignore wobbles smaller than a threshold.
///
/// A reference elevation starts at the first value. Each next value `e` counts only once it has
/// moved at least `H` away from the reference: `e − ref ≥ H` adds `e − ref` to the gain,
/// `ref − e ≥ H` adds `ref − e` to the loss, and either way `e` becomes the new reference;
/// smaller moves leave the reference where it is. A steady climb is counted in full (in steps of
/// at least `H`), while noise of less than `H` peak to peak never is. At most `H` of a real climb
/// or descent can be left uncounted at the end.
struct ElevationHysteresis {
    /// The threshold `H`, metres.
    let thresholdMeters: Double
    private var reference: Double?
    private(set) var gainMeters = 0.0
    private(set) var lossMeters = 0.0

    init(thresholdMeters: Double) {
        self.thresholdMeters = thresholdMeters
    }

    /// Takes the next elevation of the sequence.
    /// - Returns: The step counted (positive: gain, negative: loss) when the reference moved to
    ///   `elevation`; `nil` when the change was within the threshold.
    @discardableResult
    mutating func add(_ elevation: Double) -> Double? {
        guard let reference else {
            self.reference = elevation
            return nil
        }
        let step = elevation - reference
        if step >= thresholdMeters {
            gainMeters += step
        } else if -step >= thresholdMeters {
            lossMeters -= step
        } else {
            return nil
        }
        self.reference = elevation
        return step
    }
}
