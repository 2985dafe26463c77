/// A fast, allocation-free parser and formatter for the timestamps in GPX `<time>` and TCX `<Time>`
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
/// Anything else gives `nil`.
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
    static func invalidTimeMessage(_ text: String) -> String {
        let message = "invalid time \"\(text)\""
        var bytes = Array(text.utf8)
        let outOfRange = !bytes.isEmpty
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
              day <= daysInMonth(year: year, month: month),
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

        let days = daysFromCivil(year: year, month: month, day: day)
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

    /// Formats seconds since 1970 as a UTC timestamp, `YYYY-MM-DDTHH:MM:SSZ`.
    ///
    /// The value is rounded to the millisecond. Fractional digits appear only when that rounded
    /// value has a fraction, without trailing zeros: `2024-04-07T06:00:05Z`,
    /// `2024-04-07T06:00:05.5Z`, `2024-04-07T06:00:05.123Z`. Years outside 0001–9999 are written
    /// with a sign or with more digits as needed; non-finite values give their `description`
    /// (`nan`, `inf`, `-inf`).
    static func format(secondsSince1970 value: Double) -> String {
        guard value.isFinite else { return value.description }
        var whole = value.rounded(.down)
        var millis = ((value - whole) * 1000).rounded()
        if millis >= 1000 {
            whole += 1
            millis -= 1000
        }
        // Beyond ±2^62 s no calendar date makes sense; clamp instead of trapping.
        let limit = 4.6e18
        let seconds = Int(max(-limit, min(limit, whole)))
        let ms = Int(millis)

        let days = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilFromDays(days)

        var fractionDigits = ms
        var fractionWidth = ms > 0 ? 3 : 0
        while fractionWidth > 0, fractionDigits % 10 == 0 {
            fractionDigits /= 10
            fractionWidth -= 1
        }

        // At most 1 + 12 (year of ±4.6e18 s) + 15 + 4 + 1 bytes.
        return String(unsafeUninitializedCapacity: 40) { out in
            var i = 0
            if year < 0 {
                out[i] = UInt8(ascii: "-")
                i += 1
            }
            write(abs(year), width: 4, into: out, at: &i)
            out[i] = UInt8(ascii: "-"); i += 1
            write(month, width: 2, into: out, at: &i)
            out[i] = UInt8(ascii: "-"); i += 1
            write(day, width: 2, into: out, at: &i)
            out[i] = UInt8(ascii: "T"); i += 1
            write(secondOfDay / 3_600, width: 2, into: out, at: &i)
            out[i] = UInt8(ascii: ":"); i += 1
            write(secondOfDay / 60 % 60, width: 2, into: out, at: &i)
            out[i] = UInt8(ascii: ":"); i += 1
            write(secondOfDay % 60, width: 2, into: out, at: &i)
            if fractionWidth > 0 {
                out[i] = UInt8(ascii: "."); i += 1
                write(fractionDigits, width: fractionWidth, into: out, at: &i)
            }
            out[i] = UInt8(ascii: "Z"); i += 1
            return i
        }
    }

    // MARK: - Calendar arithmetic (Howard Hinnant, "chrono-Compatible Low-Level Date Algorithms")

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400                                            // [0, 399]
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1  // [0, 365]
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear   // [0, 146096]
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a count of days since 1970-01-01.
    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097                                                 // [0, 146096]
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // [0, 365]
        let mp = (5 * dayOfYear + 2) / 153                                               // [0, 11]
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
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

    /// Writes a non-negative `value` in decimal, zero-padded to at least `width` digits.
    @inline(__always)
    private static func write(_ value: Int, width: Int, into out: UnsafeMutableBufferPointer<UInt8>,
                              at index: inout Int) {
        var count = 1
        var rest = value / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        count = max(count, width)
        var v = value
        for k in stride(from: index + count - 1, through: index, by: -1) {
            out[k] = UInt8(truncatingIfNeeded: 0x30 + v % 10)
            v /= 10
        }
        index += count
    }
}
