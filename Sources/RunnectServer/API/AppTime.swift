import Foundation
import RunnectKit

/// Times and dates as the app writes and reads them (API §1, §3.5, §8): a duration `H:MM:SS` in
/// (the app sends `0:25:13`), `HH:MM:SS` out, under 24 hours (the app's server keeps them as SQL
/// `TIME`); a record's `createdAt` `yyyy-MM-dd HH:mm:ss.SSS` and a course's ISO local date-time,
/// both in the server's time zone, as the app's server's `LocalDateTime` writes them.
enum AppTime {
    /// Seconds of `text`, `H:MM:SS` or `HH:MM:SS` (minutes and seconds under 60, under 24 hours).
    /// - Throws: ``AppTimeError``.
    static func seconds(of text: String, field: String) throws -> Int {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, (1...2).contains(parts[0].count), parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let hours = Int(parts[0]), let minutes = Int(parts[1]), let seconds = Int(parts[2]),
            minutes < 60, seconds < 60
        else { throw AppTimeError.notATime(field: field, text: text) }
        guard hours < 24 else { throw AppTimeError.dayOrMore(field: field, text: text) }
        return hours * 3600 + minutes * 60 + seconds
    }

    /// `HH:MM:SS` of whole seconds under a day.
    static func text(seconds: Int) -> String {
        let clamped = max(0, min(seconds, 24 * 3600 - 1))
        return String(format: "%02d:%02d:%02d", clamped / 3600, clamped / 60 % 60, clamped % 60)
    }

    /// `HH:MM:SS` of seconds, rounded to the nearest second.
    static func text(seconds: Double) -> String { text(seconds: Int(seconds.rounded())) }

    /// A record's `createdAt`: `yyyy-MM-dd HH:mm:ss.SSS`.
    static func recordDate(_ date: Date, timeZone: TimeZone = .current) -> String {
        format(date, "yyyy-MM-dd HH:mm:ss.SSS", timeZone)
    }

    /// A course's `createdAt`: ISO 8601 local date-time with microseconds (`2024-03-21T15:04:05.123456`).
    static func courseDate(_ date: Date, timeZone: TimeZone = .current) -> String {
        let seconds = format(date, "yyyy-MM-dd'T'HH:mm:ss", timeZone)
        let micros = Int((date.timeIntervalSince1970 * 1e6).rounded()) % 1_000_000
        return seconds + String(format: ".%06d", (micros + 1_000_000) % 1_000_000)
    }

    private static func format(_ date: Date, _ pattern: String, _ timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}

/// A run the app reports (a time, no track) that cannot be true for its course: a 400.
enum AppTimeError: Error, Equatable, CustomStringConvertible {
    case notATime(field: String, text: String)
    case dayOrMore(field: String, text: String)
    case implausiblePace(secondsPerKilometer: Double)

    /// The fastest and slowest pace a reported run may have, seconds per kilometre (2'00" and 30'00").
    static let paceRange: ClosedRange<Double> = 120...1800

    var description: String {
        switch self {
        case .notATime(let field, let text): "\(field) must be H:MM:SS or HH:MM:SS, not \"\(text)\""
        case .dayOrMore(let field, let text): "\(field) \(text) is 24 hours or more"
        case .implausiblePace(let pace):
            "a time that makes \(RunnerFormat.pace(secondsPerKilometer: pace)) per km for this course cannot be a run "
                + "(2'00\" to 30'00\" per km)"
        }
    }

    /// Refuses a reported time whose pace over the course is outside ``paceRange``.
    static func checkPlausible(timeSeconds: Int, courseMeters: Double) throws {
        guard courseMeters > 0 else { return }
        let pace = Double(timeSeconds) / (courseMeters / 1000)
        guard paceRange.contains(pace) else { throw AppTimeError.implausiblePace(secondsPerKilometer: pace) }
    }
}
