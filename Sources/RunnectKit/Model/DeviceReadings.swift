/// The five optional device readings of a ``TrackPoint`` (heart rate, cadence, temperature, the
/// device's own speed and distance), packed into 15 bytes as fixed-point integers with a
/// presence mask.
///
/// Each reading is kept at or finer than the resolution devices record it at (FIT: integer bpm,
/// rpm in 1/128, integer °C, mm/s, cm), so a value read from a FIT, TCX or GPX file survives
/// unchanged; see ``TrackPoint`` for the steps and ranges. An absent reading's bits are zero, so
/// two equal sets of readings have equal bits.
struct DeviceReadings: Equatable, Sendable {
    /// One reading: its presence bit, its scale (steps per unit) and the range it holds.
    struct Field {
        let bit: UInt8
        let stepsPerUnit: Double
        let steps: ClosedRange<Int64>

        /// The nearest step count for `value` (halves away from zero, as `rounded()`), or `nil` when
        /// it is absent, not finite or out of range.
        @inline(__always)
        func steps(for value: Double?) -> Int64? {
            guard let value else { return nil }
            let scaled = value * stepsPerUnit
            // Also false for NaN and the infinities. Then truncate and round by hand: `rounded()`
            // is a call into libm on baseline x86-64, and readers set millions of these.
            guard scaled > Double(steps.lowerBound) - 1, scaled < Double(steps.upperBound) + 1 else { return nil }
            var count = Int64(scaled)
            let fraction = scaled - Double(count)  // exact: |scaled| < 2^41
            if fraction >= 0.5 { count += 1 } else if fraction <= -0.5 { count -= 1 }
            return steps.contains(count) ? count : nil
        }

        func value(ofSteps count: Int64) -> Double { Double(count) / stepsPerUnit }
    }

    // Computed, not stored: constants the compiler folds into each accessor (a stored `static let`
    // would cost a `swift_once` check on every access).
    static var heartRate: Field { Field(bit: 1, stepsPerUnit: 128, steps: 0...Int64(UInt16.max)) }
    static var cadence: Field { Field(bit: 2, stepsPerUnit: 128, steps: 0...Int64(UInt16.max)) }
    static var temperature: Field { Field(bit: 4, stepsPerUnit: 100, steps: Int64(Int16.min)...Int64(Int16.max)) }
    static var speed: Field { Field(bit: 8, stepsPerUnit: 1000, steps: 0...(1 << speedBits - 1)) }
    static var distance: Field { Field(bit: 16, stepsPerUnit: 1000, steps: 0...(1 << distanceBits - 1)) }

    private static var distanceBits: Int64 { 40 }
    private static var speedBits: Int64 { 24 }
    private static var distanceMask: UInt64 { 1 << UInt64(distanceBits) - 1 }

    /// Low 40 bits: the device distance, millimetres; high 24 bits: the device speed, mm/s.
    private var distanceAndSpeed: UInt64 = 0
    /// Heart rate and cadence in 1/128, temperature in 1/100 °C.
    private var heartRateSteps: UInt16 = 0
    private var cadenceSteps: UInt16 = 0
    private var temperatureSteps: Int16 = 0
    /// The `bit`s of the readings present.
    private var presence: UInt8 = 0

    private func has(_ field: Field) -> Bool { presence & field.bit != 0 }

    private mutating func mark(_ field: Field, present: Bool) {
        if present { presence |= field.bit } else { presence &= ~field.bit }
    }

    var heartRateBPM: Double? {
        get { has(Self.heartRate) ? Self.heartRate.value(ofSteps: Int64(heartRateSteps)) : nil }
        set {
            let steps = Self.heartRate.steps(for: newValue)
            heartRateSteps = UInt16(steps ?? 0)
            mark(Self.heartRate, present: steps != nil)
        }
    }

    var cadence: Double? {
        get { has(Self.cadence) ? Self.cadence.value(ofSteps: Int64(cadenceSteps)) : nil }
        set {
            let steps = Self.cadence.steps(for: newValue)
            cadenceSteps = UInt16(steps ?? 0)
            mark(Self.cadence, present: steps != nil)
        }
    }

    var temperatureCelsius: Double? {
        get { has(Self.temperature) ? Self.temperature.value(ofSteps: Int64(temperatureSteps)) : nil }
        set {
            let steps = Self.temperature.steps(for: newValue)
            temperatureSteps = Int16(steps ?? 0)
            mark(Self.temperature, present: steps != nil)
        }
    }

    var speedMetersPerSecond: Double? {
        get {
            has(Self.speed) ? Self.speed.value(ofSteps: Int64(distanceAndSpeed >> UInt64(Self.distanceBits))) : nil
        }
        set {
            let steps = Self.speed.steps(for: newValue)
            distanceAndSpeed =
                distanceAndSpeed & Self.distanceMask | UInt64(steps ?? 0) << UInt64(Self.distanceBits)
            mark(Self.speed, present: steps != nil)
        }
    }

    var distanceMeters: Double? {
        get { has(Self.distance) ? Self.distance.value(ofSteps: Int64(distanceAndSpeed & Self.distanceMask)) : nil }
        set {
            let steps = Self.distance.steps(for: newValue)
            distanceAndSpeed = distanceAndSpeed & ~Self.distanceMask | UInt64(steps ?? 0)
            mark(Self.distance, present: steps != nil)
        }
    }
}
