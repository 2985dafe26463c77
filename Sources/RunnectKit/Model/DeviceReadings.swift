/// The five optional device readings of a ``TrackPoint`` (heart rate, cadence, temperature, the
/// device's own speed and distance), packed into 15 bytes as fixed-point integers with a
/// presence mask.
///
/// Each reading is kept at or finer than the resolution devices record it at (FIT: integer bpm,
/// rpm in 1/128, integer °C, mm/s, cm), so a value read from a FIT, TCX or GPX file survives
/// unchanged; see ``TrackPoint`` for the steps and ranges. An absent reading's bits are zero, so
/// two equal sets of readings have equal bits.
struct DeviceReadings: Equatable, Sendable {
    /// One reading: its presence bit, its scale (steps per unit) and the range of steps it holds.
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

        /// The step count of `whole` units of `stepsEach` steps (a FIT integer field in its own
        /// unit: whole bpm, centimetres), or `nil` when out of range: the same as
        /// ``steps(for:)`` of the value, without going through a double.
        @inline(__always)
        func steps(whole: Int64, stepsEach: Int64) -> Int64? {
            let (count, overflow) = whole.multipliedReportingOverflow(by: stepsEach)
            return !overflow && steps.contains(count) ? count : nil
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

    /// The reading `field` (one of the static fields), or `nil` when absent.
    @inline(__always)
    subscript(field: Field) -> Double? {
        guard presence & field.bit != 0 else { return nil }
        return field.value(ofSteps: steps(of: field))
    }

    /// The stored step count of `field` (0 when absent).
    @inline(__always)
    private func steps(of field: Field) -> Int64 {
        switch field.bit {
        case Self.heartRate.bit: return Int64(heartRateSteps)
        case Self.cadence.bit: return Int64(cadenceSteps)
        case Self.temperature.bit: return Int64(temperatureSteps)
        case Self.speed.bit: return Int64(distanceAndSpeed >> UInt64(Self.distanceBits))
        default: return Int64(distanceAndSpeed & Self.distanceMask)
        }
    }

    /// Stores `count` steps of `field` (one of the static fields, `count` within its range), or
    /// marks it absent for `nil`.
    @inline(__always)
    mutating func set(_ field: Field, steps count: Int64?) {
        let stored = count ?? 0
        switch field.bit {
        case Self.heartRate.bit: heartRateSteps = UInt16(stored)
        case Self.cadence.bit: cadenceSteps = UInt16(stored)
        case Self.temperature.bit: temperatureSteps = Int16(stored)
        case Self.speed.bit:
            distanceAndSpeed = distanceAndSpeed & Self.distanceMask | UInt64(stored) << UInt64(Self.distanceBits)
        default: distanceAndSpeed = distanceAndSpeed & ~Self.distanceMask | UInt64(stored)
        }
        if count != nil { presence |= field.bit } else { presence &= ~field.bit }
    }

    /// Stores `value` rounded to the step of `field`; absent when it is `nil`, not finite or out of
    /// range.
    @inline(__always)
    mutating func set(_ field: Field, _ value: Double?) {
        set(field, steps: field.steps(for: value))
    }
}
