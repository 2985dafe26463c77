import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

/// The 48-byte ``TrackPoint``: its size, the steps its device readings are kept in, and what
/// happens to values that are no device reading.
@Suite("TrackPoint: size and quantisation")
struct TrackPointTests {
    @Test("a point takes at most 48 bytes; latitude and longitude stay stored doubles")
    func size() {
        #expect(MemoryLayout<TrackPoint>.stride <= 48, "\(MemoryLayout<TrackPoint>.stride) bytes")
        // Geodesic.legLengths reads them in place through these offsets.
        #expect(MemoryLayout<TrackPoint>.offset(of: \.latitude) != nil)
        #expect(MemoryLayout<TrackPoint>.offset(of: \.longitude) != nil)
    }

    @Test("every FIT value reads back as decoded: integer bpm, °C and rpm, 1/128 rpm, mm/s, cm")
    func fitResolution() {
        var point = TrackPoint(latitude: 0, longitude: 0)
        for raw in 0...254 {
            point.heartRateBPM = Double(raw)
            #expect(point.heartRateBPM == Double(raw))
            for fraction in 0..<128 {
                let rpm = Double(raw) + Double(fraction) / 128
                point.cadence = rpm
                if point.cadence != rpm { Issue.record("cadence \(rpm) → \(String(describing: point.cadence))") }
            }
        }
        for raw in -127...126 {
            point.temperatureCelsius = Double(raw)
            #expect(point.temperatureCelsius == Double(raw))
        }
        // speed (uint16, mm/s) whole; enhanced_speed (uint32, mm/s) and distance (uint32, cm) sampled.
        for raw in 0...65_534 {
            let speed = Double(raw) / 1000
            point.deviceSpeedMetersPerSecond = speed
            if point.deviceSpeedMetersPerSecond != speed { Issue.record("speed \(speed)") }
        }
        var random = SplitMix64(seed: 0x48_B17E)
        for _ in 0..<200_000 {
            let speed = Double(random.next() % 16_777_216) / 1000
            point.deviceSpeedMetersPerSecond = speed
            let centimetres = random.next() % 4_294_967_295
            let distance = Double(centimetres) / 100
            point.deviceDistanceMeters = distance
            if point.deviceSpeedMetersPerSecond != speed || point.deviceDistanceMeters != distance {
                Issue.record("speed \(speed), distance \(distance)")
            }
        }
        point.deviceDistanceMeters = 42_949_672.94  // the largest FIT distance
        #expect(point.deviceDistanceMeters == 42_949_672.94)
    }

    @Test("TCX and GPX values as devices write them: decimals to the step, Garmin's float-printed centimetres")
    func decimalResolution() {
        var point = TrackPoint(latitude: 0, longitude: 0)
        // Garmin's TCX: centimetre distances and millimetre speeds printed from 32-bit floats.
        point.deviceDistanceMeters = 1.190000057220459
        point.deviceSpeedMetersPerSecond = 1.4459999799728394
        #expect(point.deviceDistanceMeters == 1.19 && point.deviceSpeedMetersPerSecond == 1.446)
        var random = SplitMix64(seed: 0x7C5)
        for _ in 0..<100_000 {
            // Up to 8 km a float holds a centimetre value to within half a millimetre.
            let centimetres = random.next() % 800_000
            point.deviceDistanceMeters = Double(Float(Double(centimetres) / 100))
            let millimetresPerSecond = random.next() % 20_000
            point.deviceSpeedMetersPerSecond = Double(Float(Double(millimetresPerSecond) / 1000))
            if point.deviceDistanceMeters != Double(centimetres) / 100
                || point.deviceSpeedMetersPerSecond != Double(millimetresPerSecond) / 1000
            {
                Issue.record("\(centimetres) cm, \(millimetresPerSecond) mm/s")
            }
        }
        // GPX temperatures in tenths and hundredths, cadence and heart rate in halves.
        for hundredths in -5_000...6_000 {
            let celsius = Double(hundredths) / 100
            point.temperatureCelsius = celsius
            if point.temperatureCelsius != celsius { Issue.record("\(celsius) °C") }
        }
        point.heartRateBPM = 141.5
        point.cadence = 86.5
        #expect(point.heartRateBPM == 141.5 && point.cadence == 86.5)
    }

    @Test("any value is kept to within half a step, and a value read back is stored as it is")
    func rounding() {
        var random = SplitMix64(seed: 0x5_7E95)
        var point = TrackPoint(latitude: 0, longitude: 0)
        for _ in 0..<100_000 {
            let unit = Double(random.next() >> 11) / Double(1 << 53)
            let bpm = unit * 500
            let celsius = unit * 600 - 300
            let speed = unit * 16_000
            let meters = unit * 1e9
            point.heartRateBPM = bpm
            point.cadence = bpm
            point.temperatureCelsius = celsius
            point.deviceSpeedMetersPerSecond = speed
            point.deviceDistanceMeters = meters
            let read = point
            let errors = [
                abs(read.heartRateBPM! - bpm) * 128, abs(read.cadence! - bpm) * 128,
                abs(read.temperatureCelsius! - celsius) * 100, abs(read.deviceSpeedMetersPerSecond! - speed) * 1000,
                abs(read.deviceDistanceMeters! - meters) * 1000,
            ]
            // Half a step, plus the doubles' own rounding: 1e-3 step covers a 10^9 m distance's ulp.
            if errors.contains(where: { $0 > 0.5 + 1e-3 }) { Issue.record("\(unit): steps off \(errors)") }
            var again = read
            again.heartRateBPM = read.heartRateBPM
            again.cadence = read.cadence
            again.temperatureCelsius = read.temperatureCelsius
            again.deviceSpeedMetersPerSecond = read.deviceSpeedMetersPerSecond
            again.deviceDistanceMeters = read.deviceDistanceMeters
            if again != read { Issue.record("\(unit): not stable") }
        }
    }

    @Test(
        "a value that is not finite or out of its range is stored as absent",
        arguments: [
            (\TrackPoint.heartRateBPM, [-0.01, 512, 1e300, -.infinity, .infinity, .nan], [0, 511.99, 100.3]),
            (\TrackPoint.cadence, [-1, 511.997, .nan], [0, 511.992, 255.99]),
            (\TrackPoint.temperatureCelsius, [-327.69, 327.68, .infinity, .nan], [-327.68, 327.67, -0.004]),
            (\TrackPoint.deviceSpeedMetersPerSecond, [-0.001, 16_777.216, .nan], [0, 16_777.215, -0.0004]),
            (\TrackPoint.deviceDistanceMeters, [-0.001, 1_099_511_627.776, 1e12, .nan], [0, 1_099_511_627.775]),
        ] as [(WritableKeyPath<TrackPoint, Double?> & Sendable, [Double], [Double])])
    func outOfRange(_ field: WritableKeyPath<TrackPoint, Double?> & Sendable, absent: [Double], kept: [Double]) {
        var point = TrackPoint(latitude: 1, longitude: 2)
        for value in absent {
            point[keyPath: field] = 7
            point[keyPath: field] = value
            #expect(point[keyPath: field] == nil, "\(value)")
            #expect(point == TrackPoint(latitude: 1, longitude: 2), "\(value): no bits left behind")
        }
        for value in kept {
            point[keyPath: field] = value
            #expect(point[keyPath: field] != nil, "\(value)")
        }
    }

    @Test("elevation and time keep every double but NaN, which is absent; absent and 0 differ")
    func elevationAndTime() {
        var point = TrackPoint(
            latitude: 1, longitude: 2, elevationMeters: .nan, time: Date(timeIntervalSinceReferenceDate: .nan))
        #expect(point.elevationMeters == nil && point.time == nil)
        #expect(point == TrackPoint(latitude: 1, longitude: 2))
        for value in [-0.0, .infinity, -.infinity, .leastNonzeroMagnitude, 8_848.86, -430.5] {
            point.elevationMeters = value
            point.time = Date(timeIntervalSinceReferenceDate: value)
            #expect(point.elevationMeters?.bitPattern == value.bitPattern)
            #expect(point.time?.timeIntervalSinceReferenceDate.bitPattern == value.bitPattern)
        }
        var zero = TrackPoint(latitude: 1, longitude: 2)
        zero.heartRateBPM = 0
        #expect(zero != TrackPoint(latitude: 1, longitude: 2) && zero.heartRateBPM == 0)
        zero.heartRateBPM = nil
        #expect(zero == TrackPoint(latitude: 1, longitude: 2))
    }

    @Test("JSON keeps the keys and leaves absent figures out")
    func codable() throws {
        let point = TrackPoint(
            latitude: 37.5, longitude: 127, elevationMeters: 12.4, time: Date(timeIntervalSince1970: 1_746_187_471),
            heartRateBPM: 141, cadence: 86.5, temperatureCelsius: -3.25, deviceSpeedMetersPerSecond: 3.359,
            deviceDistanceMeters: 1234.567)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(point), as: UTF8.self)
        #expect(
            json
                == #"{"cadence":86.5,"device_distance_m":1234.567,"device_speed_m_s":3.359,"ele_m":12.4,"hr_bpm":141,"#
                + #""lat":37.5,"lon":127,"temp_c":-3.25,"time":767880271}"#)
        #expect(try JSONDecoder().decode(TrackPoint.self, from: Data(json.utf8)) == point)
        let bare = String(decoding: try encoder.encode(TrackPoint(latitude: 1, longitude: 2)), as: UTF8.self)
        #expect(bare == #"{"lat":1,"lon":2}"#)
    }

    @Test("written as GPX, TCX and FIT and read back, device values come back unchanged")
    func writersRoundTrip() throws {
        let start = Date(timeIntervalSince1970: 1_746_187_471)
        let points = (0..<40).map { (index: Int) -> TrackPoint in
            let offset = Double(index)
            let celsius = Double(index % 5) - 2 + (index.isMultiple(of: 2) ? 0.5 : 0)
            return TrackPoint(
                latitude: 37.5 + offset * 1e-4, longitude: 127, elevationMeters: 12.4 + offset,
                time: start + offset, heartRateBPM: 120 + offset, cadence: Double(80 + index % 7),
                temperatureCelsius: celsius)
        }
        let activity = Activity(format: .gpx11, tracks: [Track(segments: [TrackSegment(points: points)])])
        for format in CourseFileFormat.allCases {
            let back = try format.read(try format.data(activity, ExportOptions(kind: .run)))
            let read = Array(back.courseSegments.joined())
            #expect(read.count == points.count, "\(format)")
            #expect(read.map(\.heartRateBPM) == points.map(\.heartRateBPM), "\(format)")
            #expect(read.map(\.cadence) == points.map(\.cadence), "\(format)")
            switch format {
            case .gpx: #expect(read.map(\.temperatureCelsius) == points.map(\.temperatureCelsius))
            case .fit:  // FIT writes whole degrees.
                #expect(read.map(\.temperatureCelsius) == points.map { $0.temperatureCelsius.map { $0.rounded() } })
            case .tcx:  // TCX writes the distance along the path, to the millimetre, as the device distance.
                let distances = read.compactMap(\.deviceDistanceMeters)
                #expect(distances.count == points.count)
                #expect(distances.allSatisfy { ($0 * 1000).rounded() / 1000 == $0 })
                #expect(abs(distances.last! - back.stats().distanceMeters) <= 0.0005)
            }
        }
    }
}
