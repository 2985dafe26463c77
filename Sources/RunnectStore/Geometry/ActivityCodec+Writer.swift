import Foundation
import RunnectKit

extension ActivityCodec {
    /// Appends the encoding of each part to ``bytes``; see ``ActivityCodec`` for the layout.
    struct Writer {
        var bytes: [UInt8] = []

        mutating func u32(_ value: UInt32) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func double(_ value: Double) {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func count(_ count: Int, of what: String) throws {
            guard let value = UInt32(exactly: count) else { throw ActivityCodecError.tooLarge(what) }
            u32(value)
        }

        mutating func string(_ text: String) throws {
            var text = text
            try text.withUTF8 { utf8 in
                try count(utf8.count, of: "a string")
                bytes.append(contentsOf: utf8)
            }
        }

        mutating func flags(_ present: [Bool]) {
            var value: UInt8 = 0
            for (bit, isPresent) in present.enumerated() where isPresent { value |= 1 << UInt8(bit) }
            bytes.append(value)
        }

        mutating func totals(_ totals: DeviceTotals) throws {
            let figures = [
                totals.distanceMeters, totals.elapsedTimeSeconds, totals.timerTimeSeconds,
                totals.ascentMeters, totals.descentMeters, totals.calories,
            ]
            flags(figures.map { $0 != nil } + [totals.sport != nil])
            for case let figure? in figures { double(figure) }
            try totals.sport.map { try string($0) }
        }

        mutating func point(_ point: TrackPoint) {
            var mask: UInt8 = 0
            if point.elevationMeters != nil { mask |= PointFlags.elevation }
            if point.time != nil { mask |= PointFlags.time }
            if point.heartRateBPM != nil { mask |= PointFlags.heartRate }
            if point.cadence != nil { mask |= PointFlags.cadence }
            if point.temperatureCelsius != nil { mask |= PointFlags.temperature }
            if point.deviceSpeedMetersPerSecond != nil { mask |= PointFlags.deviceSpeed }
            if point.deviceDistanceMeters != nil { mask |= PointFlags.deviceDistance }
            bytes.append(mask)
            double(point.latitude)
            double(point.longitude)
            point.elevationMeters.map { double($0) }
            point.time.map { double($0.timeIntervalSinceReferenceDate) }
            point.heartRateBPM.map { double($0) }
            point.cadence.map { double($0) }
            point.temperatureCelsius.map { double($0) }
            point.deviceSpeedMetersPerSecond.map { double($0) }
            point.deviceDistanceMeters.map { double($0) }
        }
    }
}
