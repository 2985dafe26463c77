/// Writes instants as ISO 8601 UTC timestamps, the form ``ISO8601Parser`` reads: the one place
/// a time becomes text (`--json`, GeoJSON properties, the stored stats, warnings).
enum ISO8601Format {
    /// Formats seconds since 1970 as a UTC timestamp, `YYYY-MM-DDTHH:MM:SSZ`.
    ///
    /// The value is rounded to the millisecond. Fractional digits appear only when that rounded
    /// value has a fraction, without trailing zeros: `2024-04-07T06:00:05Z`,
    /// `2024-04-07T06:00:05.5Z`, `2024-04-07T06:00:05.123Z`. Years outside 0001–9999 are written
    /// with a sign or with more digits as needed; non-finite values give their `description`
    /// (`nan`, `inf`, `-inf`).
    static func string(secondsSince1970 value: Double) -> String {
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
        let (year, month, day) = CivilCalendar.civilFromDays(days)

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
            out[i] = UInt8(ascii: "-")
            i += 1
            write(month, width: 2, into: out, at: &i)
            out[i] = UInt8(ascii: "-")
            i += 1
            write(day, width: 2, into: out, at: &i)
            out[i] = UInt8(ascii: "T")
            i += 1
            write(secondOfDay / 3_600, width: 2, into: out, at: &i)
            out[i] = UInt8(ascii: ":")
            i += 1
            write(secondOfDay / 60 % 60, width: 2, into: out, at: &i)
            out[i] = UInt8(ascii: ":")
            i += 1
            write(secondOfDay % 60, width: 2, into: out, at: &i)
            if fractionWidth > 0 {
                out[i] = UInt8(ascii: ".")
                i += 1
                write(fractionDigits, width: fractionWidth, into: out, at: &i)
            }
            out[i] = UInt8(ascii: "Z")
            i += 1
            return i
        }
    }

    // MARK: - Byte helpers

    /// Writes a non-negative `value` in decimal, zero-padded to at least `width` digits.
    @inline(__always)
    private static func write(
        _ value: Int, width: Int, into out: UnsafeMutableBufferPointer<UInt8>,
        at index: inout Int
    ) {
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
