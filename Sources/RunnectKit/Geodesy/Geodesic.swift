import CGeographicLib

/// Geodesics on the WGS84 ellipsoid, computed by GeographicLib (C. F. F. Karney, *Algorithms for
/// geodesics*, 2013): accurate to a few nanometres for any pair of points, antipodal ones included.
///
/// Never haversine, never flat-earth: at Seoul's latitude those are off by 0.1–0.5 %.
public enum Geodesic {
    /// The solution of the inverse problem between two points.
    public struct Inverse: Hashable, Sendable {
        /// Length of the shortest path, metres.
        public var distanceMeters: Double
        /// Azimuth at the first point, degrees clockwise from north.
        public var initialAzimuthDegrees: Double
        /// Azimuth at the second point (forward direction), degrees clockwise from north.
        public var finalAzimuthDegrees: Double
    }

    /// Distance and azimuths of the shortest path between two points.
    ///
    /// - Returns: `nil` when a coordinate is not finite or a latitude lies outside −90…90.
    public static func inverse(from start: Coordinate, to end: Coordinate) -> Inverse? {
        guard start.latitude.isFinite, start.longitude.isFinite, end.latitude.isFinite,
            end.longitude.isFinite, abs(start.latitude) <= 90, abs(end.latitude) <= 90
        else { return nil }
        var s12 = 0.0
        var azi1 = 0.0
        var azi2 = 0.0
        guard
            rk_geod_inverse(
                start.latitude, start.longitude, end.latitude, end.longitude,
                &s12, &azi1, &azi2) == 0
        else { return nil }
        return Inverse(distanceMeters: s12, initialAzimuthDegrees: azi1, finalAzimuthDegrees: azi2)
    }

    /// Geodesic distance between two points, metres (`nil` for invalid coordinates).
    public static func distance(from start: Coordinate, to end: Coordinate) -> Double? {
        inverse(from: start, to: end)?.distanceMeters
    }

    /// The point reached from `start` after `distanceMeters` along the geodesic that leaves it at
    /// `azimuthDegrees` (clockwise from north). Negative distances go backwards.
    public static func destination(
        from start: Coordinate, azimuthDegrees: Double,
        distanceMeters: Double
    ) -> Coordinate? {
        var lat2 = 0.0
        var lon2 = 0.0
        var azi2 = 0.0
        guard abs(start.latitude) <= 90, azimuthDegrees.isFinite, distanceMeters.isFinite,
            rk_geod_direct(
                start.latitude, start.longitude, azimuthDegrees, distanceMeters,
                &lat2, &lon2, &azi2) == 0
        else { return nil }
        return Coordinate(latitude: lat2, longitude: lon2)
    }

    /// Length of a path of straight geodesic legs, metres.
    ///
    /// One call into C++ for the whole path, however long.
    /// - Complexity: O(n).
    public static func length(of path: [Coordinate]) -> Double {
        path.withUnsafeBufferPointer { legLengths(of: $0, into: nil) }
    }

    /// Fills `legs` with the length of every leg of `path` (count − 1 values) and returns their sum.
    ///
    /// Works on any buffer of structs that store latitude and longitude as stored `Double`
    /// properties: pass the key paths and the buffer is read in place, without copying.
    /// - Returns: The total in metres, NaN if any leg was undefined (invalid latitude).

    public static func legLengths<Point>(
        of path: UnsafeBufferPointer<Point>,
        latitude: KeyPath<Point, Double>, longitude: KeyPath<Point, Double>,
        into legs: UnsafeMutableBufferPointer<Double>?
    ) -> Double {
        guard path.count >= 2, let base = path.baseAddress else { return 0 }
        guard let latOffset = MemoryLayout<Point>.offset(of: latitude),
            let lonOffset = MemoryLayout<Point>.offset(of: longitude)
        else {
            // Not stored properties: copy out (never the case for the toolkit's own types).
            let coordinates = path.map {
                Coordinate(
                    latitude: $0[keyPath: latitude],
                    longitude: $0[keyPath: longitude])
            }
            return coordinates.withUnsafeBufferPointer { legLengths(of: $0, into: legs) }
        }
        precondition(legs == nil || legs!.count >= path.count - 1)
        let raw = UnsafeRawPointer(base)
        return rk_geod_path_legs(
            raw.advanced(by: latOffset).assumingMemoryBound(to: Double.self),
            raw.advanced(by: lonOffset).assumingMemoryBound(to: Double.self),
            MemoryLayout<Point>.stride, path.count, legs?.baseAddress)
    }

    /// Leg lengths of a buffer of coordinates; see ``legLengths(of:latitude:longitude:into:)``.

    public static func legLengths(
        of path: UnsafeBufferPointer<Coordinate>,
        into legs: UnsafeMutableBufferPointer<Double>?
    ) -> Double {
        legLengths(of: path, latitude: \.latitude, longitude: \.longitude, into: legs)
    }
}
