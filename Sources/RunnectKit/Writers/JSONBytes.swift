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

    /// A finite number in its shortest round-trip form (`127.0`, `1e-05`: both JSON).
    mutating func number(_ value: Double) {
        bytes.append(contentsOf: value.description.utf8)
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
        coordinate(bounds.minLongitude)
        raw(",")
        coordinate(bounds.minLatitude)
        raw(",")
        if let elevation {
            self.elevation(elevation.lowerBound)
            raw(",")
        }
        coordinate(bounds.maxLongitude)
        raw(",")
        coordinate(bounds.maxLatitude)
        if let elevation {
            raw(",")
            self.elevation(elevation.upperBound)
        }
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
        guard let text else {
            raw("null")
            return
        }
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
