/// A fast, allocation-free parser for the timestamps in GPX `<time>` and TCX `<Time>`
/// elements: ISO 8601 / XML Schema `dateTime` values such as `2024-04-07T06:00:00.000Z`.
///
/// Readers call ``parse(_:count:)`` on the raw bytes of an element's text, hundreds of thousands of
/// times per file, so the parse path never touches `DateFormatter`, `ISO8601DateFormatter` or
/// `Calendar`: the date is turned into a day count with Howard Hinnant's `days_from_civil`
/// algorithm (proleptic Gregorian calendar) and the rest is integer arithmetic.
///
/// Accepted, with optional ASCII whitespace (space, tab, CR, LF) on either side:
///
/// ```
/// YYYY-MM-DDTHH:MM:SS[.fraction][zone]
/// ```
///
/// - `T` may be `t` or a single space.
/// - The fraction has one or more digits, any number of them (`.5`, `.000`, `.2073437`).
/// - The zone is `Z` (or `z`), `+HH:MM`, `-HH:MM`, `+HHMM`, `-HHMM`, `+HH`, `-HH`, or absent.
///   A zone-less time sets ``Result/hadZone`` to `false`; the caller decides what it means
///   (the readers take it as UTC).
///
/// Ranges are validated: month 1–12, day within the month (leap years included), hour 0–23
/// (plus `24:00:00` with no non-zero fraction, the end of the day), minute 0–59, second 0–60 and a
/// zone offset of at most 14:00 either way. A leap second `60` reads as the next second:
/// `2016-12-31T23:59:60Z` is `2017-01-01T00:00:00Z` (POSIX time, like Foundation's, has no leap
/// seconds). The instant, in UTC, must lie in the years 1900–9999 (``earliestSecondsSince1970``
/// up to, not including, ``endSecondsSince1970``): no GPS device was running before 1900, and
/// `9999-12-31T23:59:60Z` would be the year 10000, which has no four-digit form to write back.
/// Anything else gives `nil`. ``ISO8601Format`` writes the form back.
enum ISO8601Parser {
    /// 1900-01-01T00:00:00Z, the earliest instant read.
    static let earliestSecondsSince1970 = -2_208_988_800
    /// 10000-01-01T00:00:00Z: every instant read is before it.
    static let endSecondsSince1970 = 253_402_300_800

    /// A parsed timestamp.
    struct Result: Hashable, Sendable {
        /// Seconds since 1970-01-01T00:00:00Z, fraction included.
        var secondsSince1970: Double
        /// Whether the text carried a zone designator (`Z` or an offset).
        var hadZone: Bool
    }

    /// Parses the bytes `[start, start + count)` as a `dateTime`; see the type's documentation for
    /// the accepted forms.
    ///
    /// - Returns: `nil` when the text is not a valid timestamp.
    static func parse(_ start: UnsafePointer<UInt8>, count: Int) -> Result? {
        guard let result = parseAnyYear(start, count: count),
            result.secondsSince1970 >= Double(earliestSecondsSince1970),
            result.secondsSince1970 < Double(endSecondsSince1970)
        else { return nil }
        return result
    }

    /// Why `text` is not a timestamp, for an error message: `invalid time "…"`, with the reason
    /// when it is the year.
    /// - Parameter shown: How `text` is quoted in the message (a reader's excerpt of it).
    static func invalidTimeMessage(_ text: String, shown: String? = nil) -> String {
        let message = "invalid time \"\(shown ?? text)\""
        var bytes = Array(text.utf8)
        let outOfRange =
            !bytes.isEmpty
            && bytes.withUnsafeMutableBufferPointer { parseAnyYear($0.baseAddress!, count: $0.count) } != nil
        return outOfRange ? message + ": only the years 1900–9999 (UTC) are read" : message
    }

    /// ``parse(_:count:)`` without the limits on the year (0001–9999 as written, any offset).
    @inline(__always)
    private static func parseAnyYear(_ start: UnsafePointer<UInt8>, count: Int) -> Result? {
        var lo = 0
        var hi = count
        while lo < hi, isSpace(start[lo]) { lo += 1 }
        while hi > lo, isSpace(start[hi - 1]) { hi -= 1 }
        // The shortest valid form, `YYYY-MM-DDTHH:MM:SS`, has 19 bytes.
        guard hi - lo >= 19 else { return nil }
        let p = start + lo
        let n = hi - lo

        guard let year = digits4(p),
            p[4] == UInt8(ascii: "-"), let month = digits2(p + 5),
            p[7] == UInt8(ascii: "-"), let day = digits2(p + 8),
            p[10] == UInt8(ascii: "T") || p[10] == UInt8(ascii: "t") || p[10] == UInt8(ascii: " "),
            let hour = digits2(p + 11),
            p[13] == UInt8(ascii: ":"), let minute = digits2(p + 14),
            p[16] == UInt8(ascii: ":"), let second = digits2(p + 17)
        else { return nil }

        guard year >= 1, month >= 1, month <= 12, day >= 1,
            day <= CivilCalendar.daysInMonth(year: year, month: month),
            minute <= 59, second <= 60
        else { return nil }

        var i = 19

        // Fraction: keep up to 15 significant digits as an exact integer, so that
        // `mantissa / 10^digits` is the correctly rounded Double of the fraction written (further
        // digits are below 1e-15 s; they are validated and ignored).
        var fraction = 0.0
        if i < n, p[i] == UInt8(ascii: ".") {
            i += 1
            let first = i
            var mantissa: Int64 = 0
            var kept = 0
            while i < n, let d = digit(p[i]) {
                if kept < 15 {
                    mantissa = mantissa * 10 + Int64(d)
                    kept += 1
                }
                i += 1
            }
            guard i > first else { return nil }  // "." without digits
            fraction = Double(mantissa) / powerOfTen(kept)
        }

        if hour == 24 {
            // Only `24:00:00` (with an all-zero fraction, if any): the end of the day.
            guard minute == 0, second == 0, fraction == 0 else { return nil }
        } else if hour > 23 {
            return nil
        }

        // Zone.
        var offsetSeconds = 0
        var hadZone = false
        if i < n {
            let c = p[i]
            if c == UInt8(ascii: "Z") || c == UInt8(ascii: "z") {
                hadZone = true
                i += 1
            } else if c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
                i += 1
                guard n - i >= 2, let offsetHours = digits2(p + i) else { return nil }
                i += 2
                var offsetMinutes = 0
                if i < n {
                    if p[i] == UInt8(ascii: ":") { i += 1 }
                    guard n - i >= 2, let mm = digits2(p + i) else { return nil }
                    offsetMinutes = mm
                    i += 2
                }
                guard offsetMinutes <= 59, offsetHours * 60 + offsetMinutes <= 14 * 60
                else { return nil }
                offsetSeconds = (offsetHours * 60 + offsetMinutes) * 60
                if c == UInt8(ascii: "-") { offsetSeconds = -offsetSeconds }
                hadZone = true
            } else {
                return nil
            }
        }
        guard i == n else { return nil }  // trailing garbage

        let days = CivilCalendar.daysFromCivil(year: year, month: month, day: day)
        let whole = days * 86_400 + hour * 3_600 + minute * 60 + second - offsetSeconds
        // One rounding: an exact integer (|whole| < 2^53) plus the correctly rounded fraction.
        return Result(secondsSince1970: Double(whole) + fraction, hadZone: hadZone)
    }

    /// Parses a string; see ``parse(_:count:)``.
    static func parse<S: StringProtocol>(_ text: S) -> Result? {
        if let result = text.utf8.withContiguousStorageIfAvailable({ buffer -> Result? in
            guard let base = buffer.baseAddress else { return nil }
            return parse(base, count: buffer.count)
        }) {
            return result
        }
        var bytes = Array(text.utf8)
        if bytes.isEmpty { return nil }
        return bytes.withUnsafeMutableBufferPointer { parse($0.baseAddress!, count: $0.count) }
    }

    // MARK: - Byte helpers

    /// 10^n for n in 0...15, exactly.
    @inline(__always)
    private static func powerOfTen(_ n: Int) -> Double {
        var result = 1.0
        for _ in 0..<n { result *= 10 }  // exact: every 10^n up to 10^22 is a Double
        return result
    }

    @inline(__always)
    private static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D
    }

    @inline(__always)
    private static func digit(_ c: UInt8) -> Int? {
        let d = Int(c) &- 0x30
        return d >= 0 && d <= 9 ? d : nil
    }

    @inline(__always)
    private static func digits2(_ p: UnsafePointer<UInt8>) -> Int? {
        guard let a = digit(p[0]), let b = digit(p[1]) else { return nil }
        return a * 10 + b
    }

    @inline(__always)
    private static func digits4(_ p: UnsafePointer<UInt8>) -> Int? {
        guard let a = digits2(p), let b = digits2(p + 2) else { return nil }
        return a * 100 + b
    }
}
