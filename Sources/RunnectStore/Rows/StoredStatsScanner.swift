import Foundation
import RunnectKit

/// A reader of the `stats` column's JSON as ``StoredStats/json()`` writes it, in one pass over
/// its bytes, for ``StoredStats/decode(_:)``: an object of version 1's keys, each a number,
/// `null`, a string without escapes (the times), or the bounds' object of four numbers.
/// Anything else (another key, an escape, a key twice, a missing figure, a newer version) it
/// leaves to `JSONDecoder`, which reads or refuses it as the ``StoredStats`` `Decodable` does.
///
/// Why: every course a list or a search shows decodes its stats, and `JSONDecoder` took about
/// 18 µs for a row's 600 bytes (`JSONSerialization` 20): at a million courses on PostgreSQL, a
/// fifth of the store's own CPU time in a search (`perf`, 2026-11-25), 0.4 ms of a page of 20.
/// `runnect-bench stats-json SampleTracks/*.gpx`, release build, 2026-11-26: 5.3 µs a row here
/// against `JSONDecoder`'s 17.4, the same stats on every row.
struct StoredStatsScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The stats `json` holds, or `nil` when it is not in the form this reader knows.
    static func stats(_ json: Data) -> ActivityStats? {
        json.withUnsafeBytes { raw in
            var scanner = StoredStatsScanner(raw.bindMemory(to: UInt8.self))
            return scanner.object()
        }
    }

    /// One value: a number, `null` (`nil` inside), or a string's text.
    private enum Value {
        case number(Double, integer: Int?)
        case null
        case text(String)
        case bounds(Bounds)
    }

    /// Version 1's keys (and `v`), as bytes: a key's slot in ``object()``'s values.
    private static let keys: [[UInt8]] = [
        "v", "points", "segments", "distance_m", "distance_3d_m", "elapsed_time_s", "moving_time_s",
        "avg_pace_s_per_km", "moving_pace_s_per_km", "max_speed_m_s", "elevation_gain_m", "elevation_loss_m",
        "min_elevation_m", "max_elevation_m", "start_time", "end_time", "avg_heart_rate_bpm", "max_heart_rate_bpm",
        "avg_cadence_spm", "max_cadence_spm", "bounds",
    ].map { Array($0.utf8) }

    private mutating func object() -> ActivityStats? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var values = [Value?](repeating: nil, count: Self.keys.count)
        if !take(UInt8(ascii: "}")) {
            repeat {
                guard let key = keySlot(), values[key] == nil, take(UInt8(ascii: ":")) else { return nil }
                if key == 20 {
                    values[key] = nextByte() == UInt8(ascii: "n") ? literalNull() : bounds().map(Value.bounds)
                } else {
                    values[key] = scalar()
                }
                guard values[key] != nil else { return nil }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        skipSpace()
        guard index == bytes.count else { return nil }
        return Self.stats(values)
    }

    /// The slot of the key next (a string of ``keys``), or `nil`.
    private mutating func keySlot() -> Int? {
        skipSpace()
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while let byte = peek, byte != UInt8(ascii: "\"") { index += 1 }
        guard index < bytes.count else { return nil }
        let key = UnsafeBufferPointer(rebasing: bytes[start..<index])
        index += 1
        return Self.keys.firstIndex { $0.elementsEqual(key) }
    }

    /// The stats of the values found in ``keys``' slots, or `nil` for a newer version, a value
    /// of another kind than its key's, or a count or the distance missing.
    private static func stats(_ values: [Value?]) -> ActivityStats? {
        func number(_ slot: Int) -> Double?? {
            switch values[slot] {
            case nil, .null: .some(nil)
            case .number(let number, _): .some(number)
            default: nil
            }
        }
        func integer(_ slot: Int) -> Int? {
            if case .number(_, let integer?) = values[slot] { integer } else { nil }
        }
        func time(_ slot: Int) -> Date?? {
            switch values[slot] {
            case nil, .null: .some(nil)
            case .text(let text): RunnerFormat.date(fromTimestamp: text).map { .some($0) }
            default: nil
            }
        }
        if values[0] != nil {
            guard let version = integer(0), version <= StoredStats.version else { return nil }
        }
        var bounds: Bounds?
        switch values[20] {
        case nil, .null: bounds = nil
        case .bounds(let read): bounds = read
        default: return nil
        }
        guard let points = integer(1), let segments = integer(2), case .number(let distance, _)? = values[3],
            let distance3D = number(4), let elapsed = number(5), let moving = number(6),
            let averagePace = number(7), let movingPace = number(8), let maxSpeed = number(9),
            let gain = number(10), let loss = number(11), let minElevation = number(12),
            let maxElevation = number(13), let start = time(14), let end = time(15),
            let averageHeartRate = number(16), let maxHeartRate = number(17),
            let averageCadence = number(18), let maxCadence = number(19)
        else { return nil }
        return ActivityStats(
            points: points, segmentCount: segments, distanceMeters: distance, distance3DMeters: distance3D,
            elapsedTimeSeconds: elapsed, movingTimeSeconds: moving, averagePaceSecondsPerKilometer: averagePace,
            movingPaceSecondsPerKilometer: movingPace, maxSpeedMetersPerSecond: maxSpeed,
            elevationGainMeters: gain, elevationLossMeters: loss, minElevationMeters: minElevation,
            maxElevationMeters: maxElevation, bounds: bounds, startTime: start, endTime: end,
            averageHeartRateBPM: averageHeartRate, maxHeartRateBPM: maxHeartRate, averageCadence: averageCadence,
            maxCadence: maxCadence)
    }

    /// The bounds' keys, as bytes, in `Bounds`' order.
    private static let cornerKeys: [[UInt8]] = ["min_lat", "min_lon", "max_lat", "max_lon"].map { Array($0.utf8) }

    /// The bounds' object: its four keys, each once, each a number.
    private mutating func bounds() -> Bounds? {
        guard take(UInt8(ascii: "{")) else { return nil }
        let names = Self.cornerKeys
        var corners = [Double?](repeating: nil, count: 4)
        repeat {
            skipSpace()
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while let byte = peek, byte != UInt8(ascii: "\"") { index += 1 }
            guard index < bytes.count,
                let corner = names.firstIndex(where: { $0.elementsEqual(bytes[start..<index]) }),
                corners[corner] == nil
            else { return nil }
            index += 1
            guard take(UInt8(ascii: ":")), case .number(let number, _)? = scalar() else { return nil }
            corners[corner] = number
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")), let minLatitude = corners[0], let minLongitude = corners[1],
            let maxLatitude = corners[2], let maxLongitude = corners[3]
        else { return nil }
        return Bounds(
            minLatitude: minLatitude, minLongitude: minLongitude, maxLatitude: maxLatitude,
            maxLongitude: maxLongitude)
    }

    /// A number, `null` or a string.
    private mutating func scalar() -> Value? {
        skipSpace()
        switch peek {
        case UInt8(ascii: "n"): return literalNull()
        case UInt8(ascii: "\""): return string().map(Value.text)
        default: return number()
        }
    }

    private mutating func literalNull() -> Value? {
        skipSpace()
        for letter in "null".utf8 {
            guard index < bytes.count, bytes[index] == letter else { return nil }
            index += 1
        }
        return .null
    }

    /// A JSON number (its grammar, which `Double(_:)` is looser than: no `inf`, `0x1p3`, `.5`,
    /// `1.` or `01`), read by the standard library's `Double` (correctly rounded, as
    /// `JSONDecoder`), and as an `Int` too when written without a fraction or an exponent.
    private mutating func number() -> Value? {
        skipSpace()
        let start = index
        _ = take(UInt8(ascii: "-"), skippingSpace: false)
        if !take(UInt8(ascii: "0"), skippingSpace: false) {
            guard let first = peek, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(first) else { return nil }
            skipDigits()
        }
        var integral = true
        if take(UInt8(ascii: "."), skippingSpace: false) {
            guard skipDigits() > 0 else { return nil }
            integral = false
        }
        if take(UInt8(ascii: "e"), skippingSpace: false) || take(UInt8(ascii: "E"), skippingSpace: false) {
            if !take(UInt8(ascii: "+"), skippingSpace: false) { _ = take(UInt8(ascii: "-"), skippingSpace: false) }
            guard skipDigits() > 0 else { return nil }
            integral = false
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let number = Double(text), number.isFinite else { return nil }
        return .number(number, integer: integral ? Int(text) : nil)
    }

    /// Skips decimal digits; how many.
    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = index
        while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - start
    }

    /// A string without escapes or control characters (else `nil`: `JSONDecoder` reads it).
    private mutating func string() -> String? {
        skipSpace()
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            guard byte != UInt8(ascii: "\\"), byte >= 0x20 else { return nil }
            index += 1
        }
        return nil
    }

    private var peek: UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    /// The next byte after whitespace.
    private mutating func nextByte() -> UInt8? {
        skipSpace()
        return peek
    }

    /// Skips whitespace (unless told not to), then takes `byte` if it is next.
    private mutating func take(_ byte: UInt8, skippingSpace: Bool = true) -> Bool {
        if skippingSpace { skipSpace() }
        guard peek == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while let byte = peek,
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\t")
        {
            index += 1
        }
    }
}
