import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

/// `ISO8601Parser` against Foundation's `ISO8601DateFormatter` and `Calendar`, which are far too slow
/// for the readers' hot path but make a good independent oracle.
@Suite("ISO8601Parser")
struct ISO8601ParserTests {
    // MARK: - Random timestamps vs Foundation

    @Test("10,000 seeded random timestamps agree with ISO8601DateFormatter and Calendar")
    func randomTimestampsMatchFoundation() throws {
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let withoutFraction = ISO8601DateFormatter()
        withoutFraction.formatOptions = [.withInternetDateTime]
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = try #require(TimeZone(identifier: "UTC"))

        var rng = SplitMix64(seed: 0x1508_6010)
        var maxFormatterDifference = 0.0
        var maxExactDifference = 0.0
        var failures = 0
        for _ in 0..<10_000 {
            let stamp = RandomStamp(&rng)
            let text = stamp.text

            guard let parsed = ISO8601Parser.parse(text) else {
                failures += 1
                Issue.record("rejected \(text)")
                continue
            }
            #expect(parsed.hadZone == stamp.hasZone, "\(text)")

            // Exact: integer seconds from Calendar, fraction from its digits.
            let components = DateComponents(
                year: stamp.year, month: stamp.month, day: stamp.day,
                hour: stamp.hour, minute: stamp.minute, second: stamp.second)
            let wallClock = try #require(utc.date(from: components)).timeIntervalSince1970
            let exact = wallClock - Double(stamp.offsetMinutes * 60) + stamp.fractionValue
            let exactDifference = abs(parsed.secondsSince1970 - exact)
            maxExactDifference = max(maxExactDifference, exactDifference)
            #expect(exactDifference <= 1e-6, "\(text): \(parsed.secondsSince1970) vs \(exact)")

            // The formatter needs a zone and keeps only milliseconds (truncating the rest):
            // agree on everything down to the millisecond.
            guard stamp.hasZone else { continue }
            let formatter = stamp.fractionDigits.isEmpty ? withoutFraction : withFraction
            guard let date = formatter.date(from: text) else {
                Issue.record("ISO8601DateFormatter rejected \(text)")
                continue
            }
            let difference = abs(parsed.secondsSince1970 - stamp.subMillisecond - date.timeIntervalSince1970)
            maxFormatterDifference = max(maxFormatterDifference, difference)
            #expect(difference <= 1e-6, "\(text): \(parsed.secondsSince1970) vs \(date.timeIntervalSince1970)")
            if failures > 20 { break }
        }
        print(
            "ISO8601Parser vs Foundation: max |Δ| exact \(maxExactDifference) s, "
                + "formatter (to the ms) \(maxFormatterDifference) s")
    }

    // MARK: - Explicit cases

    @Test(
        "valid timestamps",
        arguments: [
            // text, expected seconds since 1970, hadZone
            ("2024-04-07T06:00:00.000Z", utcSeconds(2024, 4, 7, 6), true),
            ("2024-04-07T06:00:00Z", 1_712_469_600, true),
            ("1970-01-01T00:00:00Z", 0, true),
            ("1969-12-31T23:59:59Z", -1, true),
            ("2024-02-29T12:00:00Z", utcSeconds(2024, 2, 29, 12), true),
            ("2000-02-29T00:00:00Z", utcSeconds(2000, 2, 29), true),
            ("2024-04-07T15:00:00+09:00", utcSeconds(2024, 4, 7, 6), true),  // Korea
            ("2024-04-07T01:00:00-05:00", utcSeconds(2024, 4, 7, 6), true),
            ("2024-04-07T11:30:00+0530", utcSeconds(2024, 4, 7, 6), true),
            ("2024-04-07T11:30:00+05:30", utcSeconds(2024, 4, 7, 6), true),
            ("2024-04-07T15:00:00+09", utcSeconds(2024, 4, 7, 6), true),
            ("2024-04-07T06:00:00-00:00", utcSeconds(2024, 4, 7, 6), true),
            ("2024-04-07T20:00:00+14:00", utcSeconds(2024, 4, 7, 6), true),
            ("2024-04-06T16:00:00-14:00", utcSeconds(2024, 4, 7, 6), true),
            ("2024-04-07T06:00:00", utcSeconds(2024, 4, 7, 6), false),
            ("2024-04-07T06:00:00.25", utcSeconds(2024, 4, 7, 6) + 0.25, false),
            ("2024-04-07 06:00:00Z", utcSeconds(2024, 4, 7, 6), true),
            ("2024-04-07t06:00:00z", utcSeconds(2024, 4, 7, 6), true),
            ("  2024-04-07T06:00:00Z\n", utcSeconds(2024, 4, 7, 6), true),
            ("\t\r\n2024-04-07T06:00:00.5+09:00 \t", utcSeconds(2024, 4, 6, 21) + 0.5, true),
            ("2024-04-07T06:00:05.5Z", utcSeconds(2024, 4, 7, 6, 0, 5) + 0.5, true),
            ("2024-04-07T06:00:05.123Z", utcSeconds(2024, 4, 7, 6, 0, 5) + 0.123, true),
            ("2024-04-07T06:00:05.1234567890123456789Z", utcSeconds(2024, 4, 7, 6, 0, 5) + 0.1234567890123456789, true),
            ("2024-04-07T24:00:00Z", utcSeconds(2024, 4, 8), true),
            ("2024-12-31T24:00:00.000Z", utcSeconds(2025, 1, 1), true),
            ("2016-12-31T23:59:60Z", utcSeconds(2017, 1, 1), true),  // leap second
            ("2016-12-31T23:59:60.5Z", utcSeconds(2017, 1, 1) + 0.5, true),  // within the leap second
            ("2015-06-30T23:59:60Z", utcSeconds(2015, 7, 1), true),
            ("2017-01-01T08:59:60+09:00", utcSeconds(2017, 1, 1), true),  // the leap second in Seoul
            ("1900-01-01T00:00:00Z", -2_208_988_800, true),  // the first instant read
            ("1900-01-01T00:00:00-05:00", -2_208_988_800 + 5 * 3_600, true),
            ("9999-12-31T23:59:59Z", 253_402_300_799, true),
            ("9999-12-31T23:59:59.999Z", 253_402_300_799.999, true),
            ("1901-12-13T20:45:52Z", -2_147_483_648, true),
        ] as [(String, Double, Bool)])
    func valid(text: String, expected: Double, hadZone: Bool) throws {
        let result = try #require(ISO8601Parser.parse(text), "\(text.debugDescription) rejected")
        #expect(
            abs(result.secondsSince1970 - expected) <= 1e-6,
            "\(text.debugDescription): \(result.secondsSince1970) vs \(expected)")
        #expect(result.hadZone == hadZone)
    }

    @Test(
        "invalid timestamps are rejected",
        arguments: [
            "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2100-02-29T00:00:00Z",
            "2024-13-01T00:00:00Z", "2024-00-01T00:00:00Z", "2024-04-00T00:00:00Z",
            "2024-04-31T00:00:00Z", "2024-04-07T25:00:00Z", "2024-04-07T24:00:01Z",
            "2024-04-07T24:01:00Z", "2024-04-07T24:00:00.001Z", "2024-04-07T23:60:00Z",
            "2024-04-07T23:59:61Z", "0000-01-01T00:00:00Z",
            // Years outside 1900–9999 in UTC, however they are reached:
            "0001-01-01T00:00:00Z", "0999-12-31T23:59:59Z", "1899-12-31T23:59:59Z",
            "1900-01-01T00:00:00+01:00", "9999-12-31T23:59:60Z", "9999-12-31T24:00:00Z",
            "9999-12-31T20:00:00-04:00", "10000-01-01T00:00:00Z",
            "2024-04-07", "2024-04-07T06:00", "2024-04-07T06:00Z", "abc", "", "   ",
            "2024-04-07T06:00:00.Z", "2024-04-07T06:00:00.", "2024-04-07T06:00:00ZZ",
            "2024-04-07T06:00:00+15:00", "2024-04-07T06:00:00+14:30", "2024-04-07T06:00:00+09:60",
            "2024-04-07T06:00:00+9:00", "2024-04-07T06:00:00+09:0", "2024-04-07T06:00:00+",
            "2024-04-07T06:00:00+09:00x",
            "2024-04-07X06:00:00Z", "2024/04/07T06:00:00Z", "24-04-07T06:00:00Z", "+2024-04-07T06:00:00Z",
            "2024-04-07T06:00:00 Z", "2024-04-07T06:00:00,5Z", "2024-4-07T06:00:00Z", "2024-04-07T6:00:00Z",
            "2024-04-07T06:00:00Z junk", "２０２４-04-07T06:00:00Z",
        ])
    func invalid(text: String) {
        #expect(ISO8601Parser.parse(text) == nil, "\(text.debugDescription) accepted")
    }

    @Test("parses from raw bytes, substrings and the middle of a buffer")
    func bytesAndSubstrings() throws {
        let xml = Array("<time>2024-04-07T06:00:00.000Z</time>".utf8)
        let fromBytes = try #require(
            xml.withUnsafeBufferPointer { ISO8601Parser.parse($0.baseAddress! + 6, count: 24) })
        #expect(fromBytes.secondsSince1970 == 1_712_469_600)
        #expect(fromBytes.hadZone)

        let line = "time=2024-04-07T15:00:00+09:00;"
        let substring = line.dropFirst(5).dropLast()
        #expect(ISO8601Parser.parse(substring)?.secondsSince1970 == 1_712_469_600)
    }

    @Test("the 1901 sentinel keeps its fraction to the microsecond")
    func sentinel() throws {
        let result = try #require(ISO8601Parser.parse("1901-12-13T20:45:52.2073437Z"))
        // 1901-12-13T20:45:52Z is −2³¹ s.
        #expect(result.secondsSince1970.rounded(.down) == -2_147_483_648)
        #expect(abs(result.secondsSince1970 - (-2_147_483_648 + 0.2073437)) <= 1e-6)
        #expect(ISO8601Format.string(secondsSince1970: result.secondsSince1970) == "1901-12-13T20:45:52.207Z")
        let again = try #require(ISO8601Parser.parse(ISO8601Format.string(secondsSince1970: result.secondsSince1970)))
        #expect(abs(again.secondsSince1970 - result.secondsSince1970) <= 0.0005)
    }

    // MARK: - Formatting

    @Test("format writes UTC with the fraction only when there is one")
    func formatExamples() {
        #expect(ISO8601Format.string(secondsSince1970: 1_712_469_600) == "2024-04-07T06:00:00Z")
        #expect(ISO8601Format.string(secondsSince1970: 1_712_469_605.5) == "2024-04-07T06:00:05.5Z")
        #expect(ISO8601Format.string(secondsSince1970: 1_712_469_605.123) == "2024-04-07T06:00:05.123Z")
        #expect(ISO8601Format.string(secondsSince1970: 1_712_469_605.12) == "2024-04-07T06:00:05.12Z")
        #expect(ISO8601Format.string(secondsSince1970: 1_712_469_605.0004) == "2024-04-07T06:00:05Z")
        #expect(ISO8601Format.string(secondsSince1970: 1_712_469_605.9996) == "2024-04-07T06:00:06Z")
        #expect(ISO8601Format.string(secondsSince1970: 0) == "1970-01-01T00:00:00Z")
        #expect(ISO8601Format.string(secondsSince1970: -0.5) == "1969-12-31T23:59:59.5Z")
        #expect(ISO8601Format.string(secondsSince1970: -1) == "1969-12-31T23:59:59Z")
        #expect(ISO8601Format.string(secondsSince1970: 951_782_400) == "2000-02-29T00:00:00Z")
        #expect(ISO8601Format.string(secondsSince1970: -62_135_596_800) == "0001-01-01T00:00:00Z")
        #expect(ISO8601Format.string(secondsSince1970: 253_402_300_799) == "9999-12-31T23:59:59Z")
        #expect(ISO8601Format.string(secondsSince1970: .nan) == "nan")
        // Outside 0001–9999: still a date, never a trap.
        #expect(ISO8601Format.string(secondsSince1970: 253_402_300_800) == "10000-01-01T00:00:00Z")
        #expect(ISO8601Format.string(secondsSince1970: -62_135_596_801) == "0000-12-31T23:59:59Z")
        #expect(ISO8601Format.string(secondsSince1970: -62_167_305_600) == "-0001-12-31T00:00:00Z")
        #expect(ISO8601Format.string(secondsSince1970: 1e300).hasSuffix("Z"))
        #expect(ISO8601Format.string(secondsSince1970: -1e300).hasSuffix("Z"))
    }

    @Test("format and parse round-trip, and format agrees with ISO8601DateFormatter")
    func formatRoundTrips() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        var rng = SplitMix64(seed: 0xF0_4A7)
        let low = -2_208_988_800  // 1900-01-01
        let high = 4_102_444_800  // 2100-01-01
        for _ in 0..<10_000 {
            let whole = rng.int(in: low...high)
            let millis = rng.chance(0.3) ? 0 : rng.int(in: 0...999)
            let value = Double(whole) + Double(millis) / 1000
            let text = ISO8601Format.string(secondsSince1970: value)
            let parsed = try #require(ISO8601Parser.parse(text), "\(text) rejected")
            // The same two roundings on both sides: equal to the last bit.
            #expect(parsed.secondsSince1970 == value, "\(value) → \(text) → \(parsed.secondsSince1970)")
            #expect(parsed.hadZone)
            #expect(ISO8601Format.string(secondsSince1970: parsed.secondsSince1970) == text)
            if millis == 0 {
                #expect(text == formatter.string(from: Date(timeIntervalSince1970: value)))
            } else {
                #expect(text.contains(".") && !text.contains("0Z"), "\(text)")
            }
        }
    }

    @Test("Hinnant's day count steps through every day of 1890–2110 and agrees with Calendar 1600–9999")
    func dayCount() throws {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = try #require(TimeZone(identifier: "UTC"))
        let start = CivilCalendar.daysFromCivil(year: 1890, month: 1, day: 1)
        let end = CivilCalendar.daysFromCivil(year: 2110, month: 1, day: 1)
        var previous: (year: Int, month: Int, day: Int)?
        for days in start..<end {
            let civil = CivilCalendar.civilFromDays(days)
            #expect(CivilCalendar.daysFromCivil(year: civil.year, month: civil.month, day: civil.day) == days)
            if let previous {
                let next =
                    previous.day < CivilCalendar.daysInMonth(year: previous.year, month: previous.month)
                    ? (previous.year, previous.month, previous.day + 1)
                    : previous.month < 12 ? (previous.year, previous.month + 1, 1) : (previous.year + 1, 1, 1)
                #expect(civil == next, "day \(days)")
            }
            previous = civil
        }
        // Calendar spot checks (Foundation's calendar is Julian before 1582, so stay after it).
        for year in stride(from: 1600, through: 9999, by: 37) {
            let date = try #require(utc.date(from: DateComponents(year: year, month: 3, day: 1)))
            #expect(
                Double(CivilCalendar.daysFromCivil(year: year, month: 3, day: 1) * 86_400)
                    == date.timeIntervalSince1970, "\(year)")
        }
    }
}

/// Seconds since 1970 of a UTC wall-clock time, through Foundation's Calendar.
private func utcSeconds(
    _ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0,
    _ s: Int = 0
) -> Double {
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(identifier: "UTC")!
    let components = DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
    return utc.date(from: components)!.timeIntervalSince1970
}

/// A random timestamp between 1901 and 2099 and its parts, written in one of the accepted forms.
private struct RandomStamp {
    var year, month, day, hour, minute, second: Int
    var fractionDigits: String
    var offsetMinutes: Int
    var hasZone: Bool
    var text: String

    init(_ rng: inout SplitMix64) {
        year = rng.int(in: 1901...2099)
        month = rng.int(in: 1...12)
        day = rng.int(in: 1...CivilCalendar.daysInMonth(year: year, month: month))
        hour = rng.int(in: 0...23)
        minute = rng.int(in: 0...59)
        second = rng.int(in: 0...59)
        let digitCount = rng.chance(0.25) ? 0 : rng.int(in: 1...9)
        fractionDigits = String((0..<digitCount).map { _ in Character(String(rng.int(in: 0...9))) })

        var zone: String
        switch rng.int(in: 0...9) {
        case 0:
            hasZone = false
            offsetMinutes = 0
            zone = ""
        case 1, 2, 3:
            hasZone = true
            offsetMinutes = 0
            zone = "Z"
        default:
            hasZone = true
            // Whole hours, and the half- and quarter-hour zones (India, Nepal, Chatham…).
            let hours = rng.int(in: 0...13)
            let minutes = rng.pick([0, 0, 0, 30, 45])
            offsetMinutes = (hours * 60 + minutes) * (rng.chance(0.5) ? 1 : -1)
            let sign = offsetMinutes < 0 || (offsetMinutes == 0 && rng.chance(0.5)) ? "-" : "+"
            // Mostly the extended +HH:MM, sometimes the basic +HHMM.
            let colon = rng.chance(0.7) ? ":" : ""
            zone = sign + Self.pad(abs(offsetMinutes) / 60) + colon + Self.pad(abs(offsetMinutes) % 60)
        }
        text =
            "\(year)-\(Self.pad(month))-\(Self.pad(day))T\(Self.pad(hour)):\(Self.pad(minute)):\(Self.pad(second))"
            + (fractionDigits.isEmpty ? "" : "." + fractionDigits) + zone
    }

    /// The fraction as written, to the nearest Double.
    var fractionValue: Double {
        fractionDigits.isEmpty ? 0 : Double("0." + fractionDigits)!
    }

    /// The part of the fraction below the millisecond, which ISO8601DateFormatter drops.
    var subMillisecond: Double {
        fractionDigits.count <= 3 ? 0 : Double("0.000" + fractionDigits.dropFirst(3))!
    }

    static func pad(_ n: Int) -> String {
        n < 10 ? "0\(n)" : "\(n)"
    }
}

@Suite("ISO8601Parser: leap seconds and the years read")
struct ISO8601LeapSecondTests {
    @Test(
        "23:59:60 reads as the next day's first second, for every day of 1972–2030",
        arguments: [1972, 1990, 2016, 2030])
    func leapSecondIsTheNextSecond(year: Int) throws {
        for month in 1...12 {
            let day = CivilCalendar.daysInMonth(year: year, month: month)
            let (nextYear, nextMonth) = month == 12 ? (year + 1, 1) : (year, month + 1)
            let leap = String(format: "%04d-%02d-%02dT23:59:60Z", year, month, day)
            let next = String(format: "%04d-%02d-01T00:00:00Z", nextYear, nextMonth)
            let parsedLeap = try #require(ISO8601Parser.parse(leap))
            #expect(parsedLeap == ISO8601Parser.parse(next), "\(leap)")
            #expect(ISO8601Format.string(secondsSince1970: parsedLeap.secondsSince1970) == next)
        }
    }

    @Test("a year outside 1900–9999 says so; other bad times do not blame the year")
    func invalidTimeMessage() {
        #expect(
            ISO8601Parser.invalidTimeMessage("0999-04-07T06:00:00Z")
                == "invalid time \"0999-04-07T06:00:00Z\": only the years 1900–9999 (UTC) are read")
        #expect(
            ISO8601Parser.invalidTimeMessage("9999-12-31T23:59:60Z").hasSuffix(
                "only the years 1900–9999 (UTC) are read"))
        #expect(ISO8601Parser.invalidTimeMessage("yesterday") == "invalid time \"yesterday\"")
        #expect(ISO8601Parser.invalidTimeMessage("2024-02-30T00:00:00Z") == "invalid time \"2024-02-30T00:00:00Z\"")
        #expect(ISO8601Parser.invalidTimeMessage("") == "invalid time \"\"")
    }
}
