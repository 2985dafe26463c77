/// A tiny, fast, seedable pseudo-random generator (Steele, Lea & Flood's SplitMix64, the seeder of
/// xoshiro), for tests that need the same "random" cases on every run and every platform.
///
/// The helpers below derive doubles and integers from `next()` with fixed arithmetic instead of the
/// standard library's `random(in:using:)`, whose algorithms are not promised to stay the same
/// between Swift versions: a failing case stays reproducible from its seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1), a multiple of 2⁻⁵³.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// Uniform in `range` (the upper bound is reached only through rounding).
    public mutating func double(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * nextUnit()
    }

    /// A positive value spread evenly over whole decades: `m × 10^k` with `k` uniform in `decades`
    /// and `m` uniform in [1, 10), e.g. `decades: -12 ... -4` gives as many values near 1e-12 as
    /// near 1e-4. (No libm, so the same on every platform.)
    public mutating func magnitude(decades: ClosedRange<Int>) -> Double {
        let k = int(in: decades)
        var scale = 1.0
        for _ in 0..<abs(k) { scale *= 10 }
        let m = double(in: 1...10)
        return k >= 0 ? m * scale : m / scale
    }

    /// Uniform in `range` (tiny modulo bias, irrelevant for tests).
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound)) &+ 1
        if width == 0 { return Int(truncatingIfNeeded: next()) }  // the full 64-bit range
        return range.lowerBound &+ Int(truncatingIfNeeded: next() % width)
    }

    /// Uniform in `0..<n` (same as `int(in: 0...(n - 1))`).
    public mutating func below(_ n: Int) -> Int {
        Int(next() % UInt64(n))
    }

    /// Uniform in `range` (same as `int(in:)`).
    public mutating func inRange(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }

    /// `true` with probability `numerator / denominator`.
    public mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        below(denominator) < numerator
    }

    /// `true` with probability `p`.
    public mutating func chance(_ p: Double) -> Bool {
        nextUnit() < p
    }

    /// +1 or -1, evenly.
    public mutating func sign() -> Double {
        next() & 1 == 0 ? 1 : -1
    }

    /// A random element of a non-empty collection.
    public mutating func pick<C: RandomAccessCollection>(_ items: C) -> C.Element where C.Index == Int {
        items[items.startIndex + int(in: 0...(items.count - 1))]
    }
}
