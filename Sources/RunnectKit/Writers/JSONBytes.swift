import Foundation

/// A growing JSON text, with the number forms GeoJSON needs.
struct JSONBytes {
    var bytes: [UInt8] = []
    /// Decimal places for longitudes and latitudes; `nil` for the shortest round-trip form.
    let decimals: Int?
    private let scale: Double?

    init(decimals: Int?) {
        self.decimals = decimals
        self.scale = decimals.map { pow(10, Double(min(max($0, 0), 15))) }
    }

    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// A finite number in a form that reads back as the same `Double`: the fewest decimal
    /// places that do (`127`, `37.51`, `0.00001`), else Swift's shortest form (`1e-300`).
    mutating func number(_ value: Double) {
        if !appendFixed(value) { bytes.append(contentsOf: value.description.utf8) }
    }

    private static let powersOfTen: [Double] = (0...12).map { pow(10, Double($0)) }
    private static let integerPowersOfTen: [Int64] = (0...12).map { k in (0..<k).reduce(1) { r, _ in r * 10 } }

    /// Writes `value` with the fewest decimal places (up to 12) whose text reads back as `value`.
    ///
    /// For an integer m < 2⁵³ and 10ᵏ (exact for k ≤ 22), `Double(m) / 10ᵏ` is the double nearest
    /// m / 10ᵏ, and so is what a correct parser makes of the text `m / 10ᵏ`: when it equals
    /// `value`, that text round-trips. Avoids building a `String` per number (`description`
    /// allocates for the 17 characters of most coordinates), which made GeoJSON writing 2× slower.
    private mutating func appendFixed(_ value: Double) -> Bool {
        let magnitude = abs(value)
        guard magnitude < 1e6 else { return false }
        for k in 0...12 {
            let scaled = (magnitude * Self.powersOfTen[k]).rounded()
            guard scaled < 9.0e15 else { return false }
            if scaled / Self.powersOfTen[k] == magnitude {
                let m = Int64(scaled)
                if value < 0 && m != 0 { bytes.append(UInt8(ascii: "-")) }
                appendDigits(m / Self.integerPowersOfTen[k], minimumCount: 1)
                if k > 0 {
                    bytes.append(UInt8(ascii: "."))
                    appendDigits(m % Self.integerPowersOfTen[k], minimumCount: k)
                }
                return true
            }
        }
        return false
    }

    private mutating func appendDigits(_ value: Int64, minimumCount: Int) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0 || count < minimumCount
            for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[i]) }
        }
    }

    mutating func coordinate(_ value: Double) {
        if let scale { number((value * scale).rounded() / scale) } else { number(value) }
    }

    mutating func elevation(_ value: Double) {
        number(JSONResolution.meters(value)!)
    }

    mutating func position(_ position: GeoJSONGeometry.Position, elevation: Bool) {
        bytes.append(UInt8(ascii: "["))
        coordinate(position.longitude)
        bytes.append(UInt8(ascii: ","))
        coordinate(position.latitude)
        if elevation {
            bytes.append(UInt8(ascii: ","))
            self.elevation(position.elevation)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// `[west, south, east, north]`, or `[west, south, low, east, north, high]` with elevations.
    mutating func bbox(_ bounds: Bounds, elevation: ClosedRange<Double>?) {
        bytes.append(UInt8(ascii: "["))
        coordinate(bounds.minLongitude); raw(","); coordinate(bounds.minLatitude); raw(",")
        if let elevation { self.elevation(elevation.lowerBound); raw(",") }
        coordinate(bounds.maxLongitude); raw(","); coordinate(bounds.maxLatitude)
        if let elevation { raw(","); self.elevation(elevation.upperBound) }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func geometry(_ geometry: GeoJSONGeometry) {
        let threeD = geometry.hasElevation
        if let point = geometry.point {
            raw("{\"type\":\"Point\",\"coordinates\":")
            position(point, elevation: threeD)
            raw("}")
        } else if geometry.lines.isEmpty {
            raw("null")
        } else if geometry.lines.count == 1 {
            raw("{\"type\":\"LineString\",\"coordinates\":")
            line(geometry.lines[0], elevation: threeD)
            raw("}")
        } else {
            raw("{\"type\":\"MultiLineString\",\"coordinates\":[")
            for (index, positions) in geometry.lines.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                line(positions, elevation: threeD)
            }
            raw("]}")
        }
    }

    private mutating func line(_ positions: [GeoJSONGeometry.Position], elevation: Bool) {
        bytes.reserveCapacity(bytes.count + positions.count * (elevation ? 48 : 40))
        bytes.append(UInt8(ascii: "["))
        for (index, p) in positions.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            position(p, elevation: elevation)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A JSON string (or `null`), escaped as RFC 8259 asks.
    mutating func string(_ text: String?) {
        guard let text else { raw("null"); return }
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                raw("\\u00")
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
