import RunnectTestSupport
import Testing

@testable import RunnectKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// SplitMix64 lives in Support/SplitMix64.swift, shared by the test target.

// MARK: - Differential harness against the C library

/// Runs the parser and glibc `strtod` on the same bytes and compares bit patterns.
private struct Differential {
    var count = 0
    var mismatches = 0
    var firstFailures: [String] = []

    /// Whether `ours` is what a correctly rounded strtod gives (`nil` for non-finite).
    static func agrees(_ ours: Double?, _ reference: Double) -> Bool {
        if reference.isFinite {
            return ours?.bitPattern == reference.bitPattern
        }
        return ours == nil
    }

    /// The parser's result and strtod's on `text` (which must not contain NUL).
    static func results(_ text: [UInt8]) -> (ours: Double?, reference: Double) {
        var bytes = text
        bytes.append(0)
        return bytes.withUnsafeBufferPointer { p in
            let base = p.baseAddress!
            let ours = DecimalParser.parseDouble(base, count: p.count - 1)
            let reference = base.withMemoryRebound(to: CChar.self, capacity: p.count) { strtod($0, nil) }
            return (ours, reference)
        }
    }

    /// Checks `buffer` (without terminator) and leaves it unchanged.
    mutating func check(_ buffer: inout [UInt8]) {
        buffer.append(0)
        let (ours, reference, ok) = buffer.withUnsafeBufferPointer { p -> (Double?, Double, Bool) in
            let base = p.baseAddress!
            let ours = DecimalParser.parseDouble(base, count: p.count - 1)
            let reference = base.withMemoryRebound(to: CChar.self, capacity: p.count) { strtod($0, nil) }
            return (ours, reference, Differential.agrees(ours, reference))
        }
        buffer.removeLast()
        count += 1
        if !ok {
            mismatches += 1
            if firstFailures.count < 20 {
                let text = String(decoding: buffer.prefix(200), as: UTF8.self)
                let oursText = ours.map { "\($0) (0x\(String($0.bitPattern, radix: 16)))" } ?? "nil"
                firstFailures.append(
                    "\(text): parser \(oursText), strtod \(reference) (0x\(String(reference.bitPattern, radix: 16)))")
            }
        }
    }

    mutating func check(_ text: String) {
        var bytes = Array(text.utf8)
        check(&bytes)
    }

    func expectClean(minimumCount: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        for failure in firstFailures {
            Issue.record("mismatch: \(failure)", sourceLocation: sourceLocation)
        }
        #expect(
            mismatches == 0, "\(mismatches) of \(count) inputs disagree with strtod", sourceLocation: sourceLocation)
        #expect(count >= minimumCount, sourceLocation: sourceLocation)
    }
}

/// Debug builds are several times slower; the debug counts still total over 1,000,000 inputs.
#if DEBUG
    private let scale = 2
#else
    private let scale = 8
#endif

// MARK: - Text builders

extension Array where Element == UInt8 {
    fileprivate mutating func append(ascii text: StaticString) {
        text.withUTF8Buffer { self.append(contentsOf: $0) }
    }

    fileprivate mutating func appendInt(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        appendUInt(UInt64(value.magnitude))
    }

    fileprivate mutating func appendUInt(_ value: UInt64) {
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            append(UInt8((value / divisor) % 10) + 0x30)
            divisor /= 10
        }
    }
}

/// Exact decimal expansion of m × 2^e: all digits (no leading zeros) and how
/// many of them are after the decimal point.
private func exactDecimal(_ m: UInt64, _ e: Int) -> (digits: [UInt8], fractionDigits: Int) {
    precondition(m > 0)
    let base: UInt64 = 1_000_000_000
    var limbs: [UInt64] = [m % base]  // little-endian, base 10^9
    if m >= base { limbs.append((m / base) % base) }
    if m >= base * base { limbs.append(m / (base * base)) }

    func multiply(_ k: UInt64) {
        var carry: UInt64 = 0
        for i in limbs.indices {
            let t = limbs[i] * k + carry
            limbs[i] = t % base
            carry = t / base
        }
        while carry > 0 {
            limbs.append(carry % base)
            carry /= base
        }
    }

    var fractionDigits = 0
    if e >= 0 {
        var remaining = e
        while remaining > 0 {
            let step = Swift.min(remaining, 29)
            multiply(1 << UInt64(step))
            remaining -= step
        }
    } else {
        // m × 2^e = m × 5^-e / 10^-e
        var remaining = -e
        fractionDigits = remaining
        while remaining > 0 {
            let step = Swift.min(remaining, 13)
            var k: UInt64 = 1
            for _ in 0..<step { k *= 5 }
            multiply(k)
            remaining -= step
        }
    }

    var digits: [UInt8] = []
    digits.appendUInt(limbs[limbs.count - 1])
    for i in stride(from: limbs.count - 2, through: 0, by: -1) {
        var chunk = [UInt8](repeating: 0x30, count: 9)
        var v = limbs[i]
        var j = 8
        while v > 0 {
            chunk[j] = UInt8(v % 10) + 0x30
            v /= 10
            j -= 1
        }
        digits.append(contentsOf: chunk)
    }
    return (digits, fractionDigits)
}

/// Writes digits × 10^-fractionDigits in one of several equivalent spellings.
private func appendDecimal(_ digits: [UInt8], fractionDigits: Int, negative: Bool, style: Int, to out: inout [UInt8]) {
    if negative { out.append(UInt8(ascii: "-")) }
    switch style {
    case 0:  // positional
        if fractionDigits == 0 {
            out.append(contentsOf: digits)
        } else if digits.count > fractionDigits {
            out.append(contentsOf: digits[..<(digits.count - fractionDigits)])
            out.append(UInt8(ascii: "."))
            out.append(contentsOf: digits[(digits.count - fractionDigits)...])
        } else {
            out.append(ascii: "0.")
            out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: fractionDigits - digits.count))
            out.append(contentsOf: digits)
        }
    case 1:  // integer significand with exponent
        out.append(contentsOf: digits)
        out.append(UInt8(ascii: "e"))
        out.appendInt(-fractionDigits)
    default:  // scientific d.ddddE±x
        out.append(digits[0])
        if digits.count > 1 {
            out.append(UInt8(ascii: "."))
            out.append(contentsOf: digits[1...])
        }
        out.append(UInt8(ascii: "E"))
        let exponent = digits.count - 1 - fractionDigits
        if exponent >= 0 { out.append(UInt8(ascii: "+")) }
        out.appendInt(exponent)
    }
}

/// Significand and binary exponent of a finite nonzero double: |d| = m × 2^e.
private func decompose(_ d: Double) -> (m: UInt64, e: Int) {
    let bits = d.bitPattern
    let biased = Int((bits >> 52) & 0x7FF)
    let fraction = bits & ((1 << 52) - 1)
    if biased == 0 { return (fraction, -1074) }
    return (fraction | (1 << 52), biased - 1075)
}

/// A random finite nonzero double whose binary exponent is in `exponents`.
private func randomDouble(_ rng: inout SplitMix64, binaryExponents exponents: ClosedRange<Int>) -> Double {
    let biased = UInt64(
        rng.inRange(Swift.max(exponents.lowerBound, -1022)...Swift.min(exponents.upperBound, 1023)) + 1023)
    var fraction = rng.next() & ((1 << 52) - 1)
    if rng.chance(1, in: 8) { fraction &= ~((1 << UInt64(rng.inRange(1...52))) - 1) }  // short significands
    return Double(bitPattern: biased << 52 | fraction)
}

private let gpsStrings = [
    "37.51326489262282848358154296875", "73.40000152587890625", "127.0600", "-0.5", "1e3", "97",
    "-122.0839996337890625", "51.477928161621094", "-0.001464843750000000", "2.5", "0.000030517578125",
    "-33.8688197", "151.20929550000000272848410531878471374511718750",
]

// MARK: - Tests

@Suite("DecimalParser")
struct DecimalParserTests {
    @Test("known values")
    func knownValues() {
        // Swift's own literal conversion (LLVM APFloat) is an independent, correctly rounded oracle.
        #expect(
            DecimalParser.parseDouble("37.51326489262282848358154296875")?.bitPattern
                == (37.51326489262282848358154296875 as Double).bitPattern)
        #expect(DecimalParser.parseDouble("73.40000152587890625") == 73.40000152587890625)
        #expect(DecimalParser.parseDouble("127.0600") == 127.06)
        #expect(DecimalParser.parseDouble("-0.5") == -0.5)
        #expect(DecimalParser.parseDouble("1e3") == 1000)
        #expect(DecimalParser.parseDouble("97") == 97)
        #expect(DecimalParser.parseDouble("0.1")?.bitPattern == 0x3FB9_9999_9999_999A)
        #expect(DecimalParser.parseDouble("0000.000123") == 0.000123)
        #expect(DecimalParser.parseDouble("00012.5000") == 12.5)
        #expect(DecimalParser.parseDouble(" \t12.5\r\n ") == 12.5)
        #expect(DecimalParser.parseDouble("+.5") == 0.5)
        #expect(DecimalParser.parseDouble("5.") == 5)
        #expect(DecimalParser.parseDouble("1.7976931348623157e308") == .greatestFiniteMagnitude)
        #expect(DecimalParser.parseDouble("4.9e-324") == .leastNonzeroMagnitude)
        #expect(DecimalParser.parseDouble("2.2250738585072014e-308") == .leastNormalMagnitude)
        #expect(DecimalParser.parseDouble("9007199254740993") == 9_007_199_254_740_992)  // tie to even
        #expect(DecimalParser.parseDouble("9007199254740995") == 9_007_199_254_740_996)  // tie to even
        #expect(DecimalParser.parseDouble("9007199254740993.0000000000000000000001") == 9_007_199_254_740_994)
        #expect(DecimalParser.parseDouble("1e23") == 1e23)
        #expect(DecimalParser.parseDouble("1e-400") == 0)
        #expect(DecimalParser.parseDouble("1e400") == nil)
        #expect(DecimalParser.parseDouble("-1e400") == nil)
        #expect(DecimalParser.parseDouble("1.7976931348623159e308") == nil)  // rounds to infinity
        #expect(DecimalParser.parseDouble("0e999999999999999999999") == 0)
        #expect(DecimalParser.parseDouble("12.5"[...]) == 12.5)  // Substring
        #expect(
            DecimalParser.parseDouble(String(repeating: "0", count: 5000) + "1." + String(repeating: "0", count: 5000))
                == 1)

        let negativeZero = DecimalParser.parseDouble("-0")
        #expect(negativeZero == 0)
        #expect(negativeZero?.sign == .minus)
        #expect(DecimalParser.parseDouble("-1e-400")?.sign == .minus)
        #expect(DecimalParser.parseDouble("0.0")?.sign == .plus)
    }

    @Test("reads only the given count of bytes")
    func respectsCount() {
        let bytes = Array("123456789012345678.5e7xyz".utf8)
        bytes.withUnsafeBufferPointer { p in
            #expect(DecimalParser.parseDouble(p.baseAddress!, count: 3) == 123)
            #expect(DecimalParser.parseDouble(p.baseAddress!, count: 9) == 123_456_789)
            #expect(DecimalParser.parseDouble(p.baseAddress!, count: 20) == 123_456_789_012_345_678.5)
            #expect(DecimalParser.parseDouble(p.baseAddress!, count: 21) == nil)  // "...e"
            #expect(DecimalParser.parseDouble(p.baseAddress!, count: 22) == 1.234567890123456785e24)
            #expect(DecimalParser.parseDouble(p.baseAddress!, count: 23) == nil)  // "...e7x"
            #expect(DecimalParser.parseDouble(p.baseAddress!, count: 0) == nil)
        }
    }

    @Test(
        "rejects malformed input",
        arguments: [
            "", " ", "-", "+", ".", "-.", "e5", ".e5", "1e", "1e+", "1e-", "nan", "NaN", "inf", "-inf", "Infinity",
            "0x10", "1,5", "1 000", "12.5abc", "--1", "+-1", "1..2", "1.2.3", "1e5.5", "1e5e5", "\u{A0}1", "١٢",
        ])
    func rejects(_ text: String) {
        #expect(DecimalParser.parseDouble(text) == nil)
    }

    @Test("the harness notices wrong answers")
    func harnessSensitivity() {
        // A parser off by one ulp, or one that rounds halfway cases away from zero, must be caught.
        var rng = SplitMix64(seed: 7)
        var caught = 0
        for _ in 0..<1000 {
            let d = randomDouble(&rng, binaryExponents: -60...60)
            let (m, e) = decompose(d)
            let (digits, fractionDigits) = exactDecimal(m, e)
            var text: [UInt8] = []
            appendDecimal(digits, fractionDigits: fractionDigits, negative: false, style: 0, to: &text)
            let (ours, reference) = Differential.results(text)
            #expect(Differential.agrees(ours, reference))
            if !Differential.agrees(ours.map { $0.nextUp }, reference) { caught += 1 }
        }
        #expect(caught == 1000)
        // Round-half-up instead of half-even: 2^53 + 1 is a tie that must go down to 2^53.
        let (_, tieReference) = Differential.results(Array("9007199254740993".utf8))
        #expect(!Differential.agrees(9_007_199_254_740_994, tieReference))
        #expect(Differential.agrees(9_007_199_254_740_992, tieReference))
        // The failure report path records mismatches.
        var sample = Differential()
        sample.check("0.1")
        #expect(sample.mismatches == 0 && sample.count == 1)
    }

    @Test("differential: random digit strings")
    func randomDigitStrings() {
        var rng = SplitMix64(seed: 0x5EED_0001)
        var diff = Differential()
        var text: [UInt8] = []
        text.reserveCapacity(128)
        for _ in 0..<(300_000 * scale) {
            text.removeAll(keepingCapacity: true)
            if rng.chance(1, in: 4) {
                text.append(UInt8(ascii: "-"))
            } else if rng.chance(1, in: 10) {
                text.append(UInt8(ascii: "+"))
            }
            let leadingZeros = rng.chance(1, in: 5) ? rng.inRange(1...4) : 0
            let significant = rng.inRange(1...40)
            let total = leadingZeros + significant
            // Where the point goes among the digits (total + 1 means no point).
            let point = rng.inRange(0...(total + 1))
            for i in 0..<total {
                if i == point { text.append(UInt8(ascii: ".")) }
                let digit: Int
                if i < leadingZeros {
                    digit = 0
                } else if i == leadingZeros {
                    digit = rng.inRange(1...9)
                } else if rng.chance(1, in: 6) {
                    digit = rng.chance(1, in: 2) ? 0 : 9  // runs of 0s and 9s stress rounding
                } else {
                    digit = rng.below(10)
                }
                text.append(UInt8(truncatingIfNeeded: 0x30 + digit))
            }
            if point == total { text.append(UInt8(ascii: ".")) }
            if rng.chance(1, in: 6) {
                text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: rng.inRange(1...12)))
            }
            let digitsBeforePoint = Swift.min(point, total)
            let magnitude = digitsBeforePoint - leadingZeros - 1  // decimal exponent of the first digit
            let exponent: Int?
            switch rng.below(10) {
            case 0, 1, 2: exponent = nil
            case 3, 4, 5, 6: exponent = rng.inRange(-30...30)
            case 7, 8: exponent = rng.inRange(-420...420)
            default:  // land near the overflow and underflow thresholds
                let target = rng.chance(1, in: 2) ? rng.inRange(300...310) : rng.inRange(-345...(-300))
                exponent = target - magnitude
            }
            if let exponent {
                text.append(rng.chance(1, in: 2) ? UInt8(ascii: "e") : UInt8(ascii: "E"))
                if exponent >= 0 && rng.chance(1, in: 3) { text.append(UInt8(ascii: "+")) }
                if exponent < 0 { text.append(UInt8(ascii: "-")) }
                if rng.chance(1, in: 10) { text.append(UInt8(ascii: "0")) }
                text.appendInt(abs(exponent))
            }
            diff.check(&text)
        }
        diff.expectClean(minimumCount: 300_000)
    }

    @Test("differential: exact expansions and printf renderings of doubles")
    func exactExpansions() {
        var rng = SplitMix64(seed: 0x5EED_0002)
        var diff = Differential()
        var text: [UInt8] = []
        var printed = [CChar](repeating: 0, count: 128)
        for i in 0..<(150_000 * scale) {
            text.removeAll(keepingCapacity: true)
            let negative = rng.chance(1, in: 3)
            switch i % 4 {
            case 0:
                // GPS-style: a float32 coordinate/elevation widened to double, written out exactly.
                let value = Float(Double(rng.below(360_000_000)) / 1_000_000 - 180)
                guard value != 0 else { continue }
                let (m, e) = decompose(Double(value))
                let (digits, fractionDigits) = exactDecimal(m, e)
                appendDecimal(digits, fractionDigits: fractionDigits, negative: value < 0, style: 0, to: &text)
            case 1:
                // Random doubles of moderate magnitude, exact expansion in any spelling.
                let d = randomDouble(&rng, binaryExponents: -120...120)
                let (m, e) = decompose(d)
                let (digits, fractionDigits) = exactDecimal(m, e)
                appendDecimal(
                    digits, fractionDigits: fractionDigits, negative: negative, style: rng.below(3), to: &text)
            case 2 where i % 64 == 2:
                // Occasionally the whole range, subnormals included (long expansions).
                let d =
                    rng.chance(1, in: 4)
                    ? Double(bitPattern: rng.next() & ((1 << 52) - 1) | 1)
                    : randomDouble(&rng, binaryExponents: -1074...1023)
                let (m, e) = decompose(d)
                let (digits, fractionDigits) = exactDecimal(m, e)
                appendDecimal(
                    digits, fractionDigits: fractionDigits, negative: negative, style: rng.below(3), to: &text)
            default:
                // printf %.Ng with 1...40 significant digits of a random double (any range).
                let d =
                    rng.chance(1, in: 2)
                    ? randomDouble(&rng, binaryExponents: -1074...1023)
                    : randomDouble(&rng, binaryExponents: -40...40)
                let precision = Int32(rng.inRange(1...40))
                let length = printed.withUnsafeMutableBufferPointer { buffer in
                    withVaList([precision, negative ? -d : d]) {
                        vsnprintf(buffer.baseAddress!, buffer.count, "%.*g", $0)
                    }
                }
                printed.withUnsafeBufferPointer { buffer in
                    text.append(contentsOf: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: Int(length)))
                }
            }
            diff.check(&text)
        }
        for s in gpsStrings { diff.check(s) }
        diff.expectClean(minimumCount: 150_000)
    }

    @Test("differential: halfway cases, near-halfway, and 2^53")
    func halfwayCases() {
        var rng = SplitMix64(seed: 0x5EED_0003)
        var diff = Differential()
        var text: [UInt8] = []
        for i in 0..<(100_000 * scale) {
            text.removeAll(keepingCapacity: true)
            let negative = rng.chance(1, in: 4)
            switch i % 4 {
            case 0, 1:
                // The exact midpoint between a double and its successor, or a hair either side of it.
                let d =
                    i % 64 == 1
                    ? randomDouble(&rng, binaryExponents: -1074...1022)
                    : randomDouble(&rng, binaryExponents: -80...80)
                let (m, e) = decompose(d)
                var midM = 2 * m + 1
                var midE = e - 1
                switch rng.below(3) {
                case 0: break
                case 1:
                    midM = midM << 9 + 1
                    midE -= 9  // just above
                default:
                    midM = midM << 9 - 1
                    midE -= 9  // just below
                }
                let (digits, fractionDigits) = exactDecimal(midM, midE)
                appendDecimal(
                    digits, fractionDigits: fractionDigits, negative: negative, style: rng.below(3), to: &text)
            case 2:
                // Ties that fit in 19 digits, w × 10^q with -4 <= q <= 23: the
                // only place a product in Eisel–Lemire can be exactly halfway.
                let q = rng.inRange(-4...23)
                var pow5: UInt64 = 1
                for _ in 0..<abs(q) { pow5 *= 5 }
                var w: UInt64
                if q >= 0 {
                    // M = t × 5^q odd with 54 bits is a midpoint; M × 2^(q+k) = (t × 2^k) × 10^q.
                    let low = ((1 as UInt64) << 53 + pow5 - 1) / pow5
                    let high = ((1 as UInt64) << 54 - 1) / pow5
                    var t = low + rng.next() % (high - low + 1)
                    if t & 1 == 0 { t = t == high ? t - 1 : t + 1 }
                    let room = t.leadingZeroBitCount - 1
                    w = t << UInt64(rng.inRange(0...Swift.max(0, room)))
                } else {
                    // M odd with 54 bits; M × 2^(q+k) = (M × 5^-q × 2^k) × 10^q.
                    let midpoint = ((1 as UInt64) << 53) | rng.next() & ((1 << 53) - 1) | 1
                    let base = midpoint * pow5
                    w = base << UInt64(rng.inRange(0...Swift.max(0, base.leadingZeroBitCount - 1)))
                }
                switch rng.below(4) {
                case 0: w -= 1
                case 1: w += 1
                default: break
                }
                if negative { text.append(UInt8(ascii: "-")) }
                text.appendUInt(w)
                text.append(UInt8(ascii: "e"))
                text.appendInt(q)
            default:
                // Integers and near-integers around 2^53, 2^54, 2^63, 2^64 and 10^19.
                let anchors: [UInt64] = [1 << 53, 1 << 54, 1 << 63, UInt64.max - 2000, 10_000_000_000_000_000_000]
                let anchor = anchors[rng.below(anchors.count)]
                let value = anchor &+ UInt64(bitPattern: Int64(rng.inRange(-1000...1000)))
                if negative { text.append(UInt8(ascii: "-")) }
                text.appendUInt(value)
                switch rng.below(4) {
                case 0: text.append(ascii: ".5")
                case 1: text.append(ascii: ".0000000000000000000001")
                case 2: text.append(ascii: ".4999999999999999999999")
                default: break
                }
            }
            diff.check(&text)
        }

        // Very long inputs (heap-buffer fallback): a tie followed by thousands of zeros, then a 1.
        let (m, e) = decompose(1.0 / 3.0)
        let (digits, fractionDigits) = exactDecimal(2 * m + 1, e - 1)
        for tail in ["", "1"] {
            text.removeAll(keepingCapacity: true)
            appendDecimal(digits, fractionDigits: fractionDigits, negative: false, style: 0, to: &text)
            text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: 6000))
            text.append(contentsOf: tail.utf8)
            diff.check(&text)
        }
        diff.expectClean(minimumCount: 100_000)
    }

    @Test("differential: fixed edge cases")
    func fixedCases() {
        var diff = Differential()
        let cases =
            gpsStrings + [
                "0", "-0", "+0", "0.0", "-0.0", ".0", "0.", "00012.5000", "0000.000123", " 12.5 ", "\t-7\n",
                "1e308", "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
                "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.9999999999999999999999999999999999999999999999999999999999999999999999",
                "4.9e-324", "5e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
                "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324",
                "2.2250738585072014e-308", "2.2250738585072011e-308", "2.2250738585072012e-308",
                "2.225073858507201136057409796709131975934819546351645648023426109724822222021076945516529523908135087914149158913039621106870086438694594645527657207407820621743379988141063267329253552286881372149012981122451451889849057222307285255133155755015914397476397983411801999323962548289017107081850690630666655994938275772572015763062690663332647565300009245888316433037779791869612049497390377829704905051080609940730262937128958950003583799967207254304360284078895771796150945516748243471030702609144621572289880258182545180325707018860872113128079512233426288368622321503775666622503982534335974568884423900265498198385487948292206894721689831099698365846814022854243330660339850886445804001034933970427567186443383770486037861622771738545623065874679014086723327636718751234567890123456789012345678901234567890e-308",
                "1e-400", "-1e-400", "1e400", "-1e400", "1e-342", "1e-343", "9.99999e-343", "1e309", "0.1e309",
                "0e999999", "1e23", "8.98846567431158e307", "9007199254740993", "9007199254740992.5",
                "123456789012345678901234567890", "0.000000000000000000000000000000000000000000001",
                "3.141592653589793238462643383279502884197169399375105820974944592307816406286",
                "2.718281828459045235360287471352662497757247093699959574966967627724076630353e-5",
                "1448997445238699", "6929495644600919e-305", "89255e-22", "7.038531e-26", "9214843084008499",
                "30078505129381147446200", "1777820000000000000001", "0.3932922657273", "4.35679664e-315",
            ]
        for c in cases { diff.check(c) }
        diff.expectClean(minimumCount: cases.count)
    }
}
