import Foundation
import RunnectKit

/// Well-known binary (OGC, little-endian) of the lines the store writes to its `geography`
/// columns: a course's path and its pieces. Longitudes are wrapped into −180…180 (PostGIS takes
/// a longitude past ±180° as is), and a line of one point is drawn from it to itself.
struct WellKnownBinary {
    private(set) var bytes: [UInt8] = []

    /// An empty buffer with room for `lines` lines of `points` points in all.
    init(lines: Int, points: Int) {
        bytes.reserveCapacity(9 + 9 * lines + 16 * points)
    }

    /// The bytes, as PostgreSQL takes them.
    var data: Data { Data(bytes) }

    /// A `MultiLineString` header; its `count` lines follow (``appendLineString(_:)``).
    mutating func appendMultiLineString(count: Int) {
        bytes.append(1)  // little-endian
        append(UInt32(5))
        append(UInt32(count))
    }

    /// A `LineString` of `points` (one point: a line from it to itself).
    mutating func appendLineString(_ points: [Coordinate]) {
        bytes.append(1)  // little-endian
        append(UInt32(2))
        append(UInt32(max(points.count, 2)))
        for point in points.count == 1 ? [points[0], points[0]] : points {
            append(remainder(point.longitude, 360).bitPattern)
            append(point.latitude.bitPattern)
        }
    }

    private mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
