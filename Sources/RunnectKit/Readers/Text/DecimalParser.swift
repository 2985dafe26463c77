#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Correctly rounded conversion of decimal text (the XML Schema `xs:decimal` /
/// `xs:double` lexical forms found in GPX and TCX files) to `Double`.
///
/// ## Algorithm
///
/// The text is scanned once (only a very long integer part is re-read),
/// folding the first 19 significant digits into a 64-bit integer `w` with a
/// decimal exponent `q`, so that the value is `w × 10^q`; of any further
/// digits only whether one is nonzero is recorded. Fraction digits are
/// consumed eight at a time with SWAR arithmetic. Then:
///
/// 1. **Clinger's fast path.** When `w ≤ 2^53` and `|q| ≤ 22`, both `w` and
///    `10^|q|` are exact doubles, so a single IEEE multiplication or division
///    (which is correctly rounded) gives the exact answer.
/// 2. **Eisel–Lemire.** Otherwise `w` is shifted so that its top bit is set and
///    multiplied by a 128-bit approximation of `5^q` (the generated table in
///    `PowersOfFive.swift`); only the upper 64 bits of that product are usually
///    needed, and the lower table word is consulted only when the 9 bits just
///    below the 55 we keep are all ones. The binary exponent comes from
///    `floor(q·log2 10)`. Mushtak and Lemire ("Fast Number Parsing Without
///    Fallback", 2023) proved that this 128-bit product always determines the
///    correctly rounded result for any 64-bit `w` and `-342 ≤ q ≤ 308`, so no
///    "undecidable" exit is needed. Exact halfway cases — which can only occur
///    for `-4 ≤ q ≤ 23`, where the product is exact — are detected and rounded
///    to even.
/// 3. **More than 19 significant digits.** If every dropped digit is zero, the
///    first 19 digits are the exact value and go through 1–2. Otherwise the
///    true value lies strictly between `w × 10^q` and `(w+1) × 10^q`; both
///    bounds are converted with Eisel–Lemire, and if they round to the same
///    double so does the true value. If they differ, the bounds straddle a rounding boundary and
///    the parser falls back to `strtod`.
///
/// ## Exactness
///
/// Every result is the same as a correctly rounded `strtod` (glibc) in
/// round-to-nearest-even, including the sign of zero: the fast paths are exact
/// by construction and everything else is delegated to `strtod`.
///
/// ## Fallback
///
/// `strtod` is used for results in the subnormal range (and values that round
/// there), and for truncated inputs whose two bounds disagree. The number is
/// copied into a NUL-terminated buffer (on the stack up to 4096 bytes) and
/// converted by `strtod` under the "C" locale (`uselocale`, per thread), so a host program's
/// `setlocale` (a decimal comma) cannot change the result.
/// Non-finite results (overflow such as `1e400`) are reported as `nil`,
/// because a GPS number that overflows is invalid; underflow gives ±0.
package enum DecimalParser {
    /// Parses an XML Schema decimal/double lexical form from bytes [start, start+count): optional ASCII whitespace
    /// around it, optional sign (+/-), digits with an optional '.', optional exponent (e/E, sign, digits). At least
    /// one digit in the mantissa is required. No "nan", "inf", hex, or thousands separators: those return nil.
    /// Returns nil for anything else (including empty input).
    package static func parseDouble(_ start: UnsafePointer<UInt8>, count: Int) -> Double? {
        guard count > 0 else { return nil }
        var p = start
        let end = start + count
        while p < end && isXMLSpace(p.pointee) { p += 1 }
        guard p < end else { return nil }
        let numberStart = p

        var negative = false
        if p.pointee == UInt8(ascii: "-") {
            negative = true
            p += 1
        } else if p.pointee == UInt8(ascii: "+") {
            p += 1
        }

        // Mantissa: the first 19 significant digits are folded into `w`, and
        // `q` is the power of ten that scales it. Of the digits beyond those,
        // only whether any is nonzero (`truncated`) matters.
        var w: UInt64 = 0
        var q = 0
        var truncated = false
        let intStart = p
        while p < end && p.pointee == UInt8(ascii: "0") { p += 1 }
        let intSignificantStart = p
        // Integer parts of GPS numbers are short: a plain loop beats SWAR here.
        // This wraps if there are more than 19 digits; that case is redone below.
        while p < end {
            let d = p.pointee &- 0x30
            if d > 9 { break }
            w = w &* 10 &+ UInt64(d)
            p += 1
        }
        let intEnd = p
        let intSignificant = intEnd - intSignificantStart
        if intSignificant > 19 {
            // Rare: a very long integer part. Keep its first 19 digits.
            w = 0
            var r = intSignificantStart
            for _ in 0..<19 {
                w = w &* 10 &+ UInt64(r.pointee &- 0x30)
                r += 1
            }
            q = intEnd - r
            truncated = hasNonZeroDigit(r, intEnd)
        }
        var digitCount = intEnd - intStart
        if p < end && p.pointee == UInt8(ascii: ".") {
            p += 1
            let fracStart = p
            if intSignificant == 0 {
                // Zeros right after the point only shift the exponent.
                while p < end && p.pointee == UInt8(ascii: "0") { p += 1 }
            }
            // Fraction digits that still fit in the 19.
            var budget = 19 - min(intSignificant, 19)
            while budget >= 8 && end - p >= 8 {
                let v = loadEight(p)
                if !isEightDigits(v) { break }
                w = w &* 100_000_000 &+ eightDigitsValue(v)
                p += 8
                budget -= 8
            }
            while budget > 0 && p < end {
                let d = p.pointee &- 0x30
                if d > 9 { break }
                w = w &* 10 &+ UInt64(d)
                p += 1
                budget -= 1
            }
            q -= p - fracStart
            // Digits beyond the 19.
            while end - p >= 8 {
                let v = loadEight(p)
                if !isEightDigits(v) { break }
                if v != 0x3030_3030_3030_3030 { truncated = true }
                p += 8
            }
            while p < end {
                let d = p.pointee &- 0x30
                if d > 9 { break }
                if d != 0 { truncated = true }
                p += 1
            }
            digitCount += p - fracStart
        }
        guard digitCount > 0 else { return nil }

        // Exponent.
        var exponent = 0
        if p < end && (p.pointee | 0x20) == UInt8(ascii: "e") {
            p += 1
            var expNegative = false
            if p < end {
                if p.pointee == UInt8(ascii: "-") {
                    expNegative = true
                    p += 1
                } else if p.pointee == UInt8(ascii: "+") {
                    p += 1
                }
            }
            let expDigits = p
            while p < end {
                let d = p.pointee &- 0x30
                if d > 9 { break }
                // Saturate far beyond any digit count that fits in memory, so that
                // `q + exponent` stays meaningful and nothing overflows.
                if exponent < 1 << 40 { exponent = exponent &* 10 &+ Int(d) }
                p += 1
            }
            guard p > expDigits else { return nil }
            if expNegative { exponent = -exponent }
        }
        while p < end && isXMLSpace(p.pointee) { p += 1 }
        guard p == end else { return nil }

        q += exponent

        let sign: UInt64 = negative ? 1 << 63 : 0
        if w == 0 {
            return Double(bitPattern: sign)
        }

        var bits: UInt64
        if !truncated {
            if w <= 1 << 53 && q >= -22 && q <= 22 {
                // Clinger: one correctly rounded operation on exact operands.
                let m = Double(w)
                let r = q < 0 ? m / exactPowerOfTen(-q) : m * exactPowerOfTen(q)
                return negative ? -r : r
            }
            bits = eiselLemire(w, q)
        } else {
            // The two conversions are independent, so they overlap in the
            // pipeline; the second costs far less than its instruction count.
            bits = eiselLemire(w, q)
            if bits != needsFallback && eiselLemire(w &+ 1, q) != bits {
                bits = needsFallback
            }
        }
        if bits == needsFallback {
            return strtodFallback(numberStart, end)
        }
        if bits == infinityBits {
            return nil
        }
        return Double(bitPattern: bits | sign)
    }

    /// Convenience for tests and non-hot paths.
    static func parseDouble<S: StringProtocol>(_ text: S) -> Double? {
        if let r = text.utf8.withContiguousStorageIfAvailable({ buf -> Double? in
            guard let base = buf.baseAddress else { return nil }
            return parseDouble(base, count: buf.count)
        }) {
            return r
        }
        var s = String(text)
        return s.withUTF8 { buf -> Double? in
            guard let base = buf.baseAddress else { return nil }
            return parseDouble(base, count: buf.count)
        }
    }

    // MARK: - Eisel–Lemire

    /// Marker returned by `eiselLemire` when the result must come from `strtod`
    /// (it is a NaN pattern, never produced as a result).
    private static let needsFallback: UInt64 = 0x7FF8_0000_0000_0001
    private static let infinityBits: UInt64 = 0x7FF0_0000_0000_0000

    /// Bit pattern of the double nearest to `w × 10^q` (ties to even), for
    /// `w != 0`; `infinityBits` on overflow, `needsFallback` for the subnormal
    /// range.
    @inline(__always)
    private static func eiselLemire(_ w: UInt64, _ q: Int) -> UInt64 {
        // w < 2^64 < 10^20: below 10^-342 the value is under half the smallest
        // subnormal; above 10^308 it exceeds the largest double.
        if q < powersOfFiveMinExponent { return 0 }
        if q > powersOfFiveMaxExponent { return infinityBits }

        let lz = w.leadingZeroBitCount
        let wn = w &<< UInt64(lz)
        let index = 2 &* (q &- powersOfFiveMinExponent)
        let (tHigh, tLow) = powersOfFive128.withUnsafeBufferPointer { ($0[index], $0[index &+ 1]) }

        // Top 128 bits of the 192-bit product wn × T[q].
        var (high, low) = wn.multipliedFullWidth(by: tHigh)
        if high & 0x1FF == 0x1FF {
            // The 9 bits below the 55 we keep are all ones: a carry from the
            // rest of the product could change them. Add in wn × tLow.
            let extra = wn.multipliedFullWidth(by: tLow).high
            let (sum, carry) = low.addingReportingOverflow(extra)
            low = sum
            if carry { high &+= 1 }
        }

        // `high` is in [2^62, 2^64): keep 54 bits (53 + a rounding bit).
        let upper = Int(high >> 63)
        let shift = UInt64(upper &+ 9)
        var mantissa = high >> shift
        let below = high & ((1 &<< shift) &- 1)  // bits under the rounding bit
        // Biased exponent: q + floor(q·log2 5) (= floor(q·log2 10)) + upper - lz
        // + 63 (product scaling) + 1023 (bias).
        var biased = q &+ ((q &* 152_170) >> 16) &+ upper &- lz &+ 1086
        if biased <= 0 {
            return needsFallback
        }
        // An exact tie (possible only where the product is exact: -4 <= q <= 23):
        // the rounding bit is 1 and everything below it is zero. Round to even
        // by clearing the rounding bit when the kept mantissa is even.
        if low == 0 && below == 0 && mantissa & 3 == 1 && q >= -4 && q <= 23 {
            mantissa &= ~1
        }
        mantissa = (mantissa &+ 1) >> 1
        if mantissa >= 1 << 53 {
            mantissa >>= 1
            biased &+= 1
        }
        if biased >= 0x7FF {
            return infinityBits
        }
        return UInt64(biased) << 52 | (mantissa & ((1 << 52) - 1))
    }

    // MARK: - Helpers

    @inline(__always)
    private static func isXMLSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D
    }

    /// Eight bytes at `p`, the first byte in the least significant position.
    @inline(__always)
    private static func loadEight(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }

    @inline(__always)
    private static func isEightDigits(_ v: UInt64) -> Bool {
        // Every byte in 0x30...0x39: its high nibble is 3, and stays 3 after
        // adding 6 (a low nibble above 9 would carry into it).
        let highNibbles = v & 0xF0F0_F0F0_F0F0_F0F0
        let afterAdd = (v &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0
        return (highNibbles | afterAdd >> 4) == 0x3333_3333_3333_3333
    }

    /// Decimal value of eight ASCII digits (first digit most significant).
    @inline(__always)
    private static func eightDigitsValue(_ v: UInt64) -> UInt64 {
        var x = v &- 0x3030_3030_3030_3030
        // Pairs: byte 2k becomes 10·d(2k) + d(2k+1).
        x = (x &* 10 &+ (x >> 8)) & 0x00FF_00FF_00FF_00FF
        // Quads: 16-bit lane 2k becomes 100·pair(2k) + pair(2k+1).
        x = (x &* 100 &+ (x >> 16)) & 0x0000_FFFF_0000_FFFF
        return (x & 0xFFFF_FFFF) &* 10_000 &+ (x >> 32)
    }

    /// Whether any byte in [p, end) is a digit other than '0' (all are digits).
    @inline(__always)
    private static func hasNonZeroDigit(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Bool {
        var p = start
        while end - p >= 8 {
            if loadEight(p) != 0x3030_3030_3030_3030 { return true }
            p += 8
        }
        while p < end {
            if p.pointee != UInt8(ascii: "0") { return true }
            p += 1
        }
        return false
    }

    /// 10^n for 0 <= n <= 22, all exactly representable.
    @inline(__always)
    private static func exactPowerOfTen(_ n: Int) -> Double {
        exactPowersOfTen.withUnsafeBufferPointer { $0[n] }
    }

    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    // MARK: - Fallback

    /// The "C" locale, created once: the decimal point is always '.'.
    /// `1 << LC_NUMERIC` is `LC_NUMERIC_MASK`, a macro Swift cannot import.
    nonisolated(unsafe) private static let cLocale: locale_t = newlocale(1 << LC_NUMERIC, "C", nil)

    /// Correctly rounded conversion by the C library for the rare hard cases.
    /// `[start, end)` has already been validated; strtod stops at any trailing whitespace.
    @inline(never)
    private static func strtodFallback(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Double? {
        let n = end - start
        func convert(_ buffer: UnsafeMutablePointer<CChar>) -> Double {
            UnsafeMutableRawPointer(buffer).copyMemory(from: start, byteCount: n)
            buffer[n] = 0
            // uselocale is per thread: other threads keep theirs.
            let previous = uselocale(cLocale)
            defer { uselocale(previous) }
            return strtod(buffer, nil)
        }
        let value: Double
        if n <= 4096 {
            value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: n + 1) { convert($0.baseAddress!) }
        } else {
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: n + 1)
            defer { buffer.deallocate() }
            value = convert(buffer)
        }
        return value.isFinite ? value : nil
    }
}
