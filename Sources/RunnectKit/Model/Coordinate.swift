/// A position on the WGS84 ellipsoid, in degrees.
///
/// Latitude comes first in the API, as runners and maps say it (`37.5100, 127.0600`); GeoJSON
/// writers swap to `[lon, lat]` themselves.
public struct Coordinate: Hashable, Sendable, Codable {
    /// Degrees north of the equator, −90…90.
    public var latitude: Double
    /// Degrees east of Greenwich, −180…180.
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether the latitude is within −90…90 and the longitude within −180…180 (both finite).
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }
}

extension Coordinate: CustomStringConvertible {
    public var description: String { "\(latitude),\(longitude)" }
}
