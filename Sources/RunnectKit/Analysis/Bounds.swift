/// The latitude–longitude box that holds every positioned point of an activity, degrees.
///
/// Longitudes follow the GeoJSON convention (RFC 7946, section 5.2): ``minLongitude`` is the
/// western edge and ``maxLongitude`` the eastern one, both in −180…180. For a track that crosses
/// the antimeridian the box wraps, and then `minLongitude > maxLongitude` (a run on Taveuni from
/// 179.99° to −179.99° gives `min_lon` 179.99, `max_lon` −179.99).
public struct Bounds: Sendable, Equatable, Codable {
    /// Southern edge, degrees.
    public var minLatitude: Double
    /// Western edge, degrees (greater than ``maxLongitude`` when the box crosses the antimeridian).
    public var minLongitude: Double
    /// Northern edge, degrees.
    public var maxLatitude: Double
    /// Eastern edge, degrees.
    public var maxLongitude: Double

    public init(minLatitude: Double, minLongitude: Double, maxLatitude: Double, maxLongitude: Double) {
        self.minLatitude = minLatitude
        self.minLongitude = minLongitude
        self.maxLatitude = maxLatitude
        self.maxLongitude = maxLongitude
    }

    /// Whether the box wraps across the antimeridian (its western edge lies east of its eastern one).
    public var crossesAntimeridian: Bool { minLongitude > maxLongitude }

    /// The smallest box holding every point that has a position, or `nil` when none has.
    ///
    /// Longitudes are taken both in −180…180 and in 0…360, and the representation with the smaller
    /// east–west span wins: a track from 179.99° to −179.99° spans 0.02° in the second and 359.98°
    /// in the first. Both edges are given back in −180…180. Points whose latitude or longitude is
    /// not finite, or whose latitude lies outside −90…90, have no position and are skipped.
    /// - Complexity: O(n) in the number of points.
    public init?(enclosing segments: [[TrackPoint]]) {
        var extent = Extent()
        for points in segments { extent.add(points) }
        guard let bounds = extent.bounds else { return nil }
        self = bounds
    }

    /// The extremes ``init(enclosing:)-([[TrackPoint]])`` keeps while it reads points: gathered
    /// over parts of a course (on different cores) and joined in order, they give the box of the
    /// whole, the same as one pass over all of it.
    struct Extent {
        private var minLat = Double.infinity
        private var maxLat = -Double.infinity
        private var minLon = Double.infinity
        private var maxLon = -Double.infinity
        private var minLon360 = Double.infinity
        private var maxLon360 = -Double.infinity
        // The longitudes at those extremes as given, so no ±360 round trip adds rounding noise.
        private var westOf360 = 0.0
        private var eastOf360 = 0.0

        /// Takes every positioned point of `points`.
        mutating func add(_ points: [TrackPoint]) {
            for point in points { add(point) }
        }

        /// Takes `point` if it has a position.
        @inline(__always)
        mutating func add(_ point: TrackPoint) {
            if SegmentMeasurement.hasPosition(point) {
                minLat = Swift.min(minLat, point.latitude)
                maxLat = Swift.max(maxLat, point.latitude)
                let lon = Bounds.normalized(point.longitude)
                minLon = Swift.min(minLon, lon)
                maxLon = Swift.max(maxLon, lon)
                let lon360 = lon < 0 ? lon + 360 : lon
                if lon360 < minLon360 {
                    minLon360 = lon360
                    westOf360 = lon
                }
                if lon360 > maxLon360 {
                    maxLon360 = lon360
                    eastOf360 = lon
                }
            }
        }

        /// Takes the extremes of points that come after those taken so far (an earlier extreme
        /// stays where a later one only equals it, as in one pass).
        mutating func add(_ later: Extent) {
            minLat = Swift.min(minLat, later.minLat)
            maxLat = Swift.max(maxLat, later.maxLat)
            minLon = Swift.min(minLon, later.minLon)
            maxLon = Swift.max(maxLon, later.maxLon)
            if later.minLon360 < minLon360 {
                minLon360 = later.minLon360
                westOf360 = later.westOf360
            }
            if later.maxLon360 > maxLon360 {
                maxLon360 = later.maxLon360
                eastOf360 = later.eastOf360
            }
        }

        /// The box, or `nil` when no positioned point was taken.
        var bounds: Bounds? {
            guard minLat <= maxLat else { return nil }
            if maxLon360 - minLon360 < maxLon - minLon {
                // 180° and −180° are one meridian: an edge there is written so the box does not wrap.
                return Bounds(
                    minLatitude: minLat, minLongitude: westOf360 == 180 ? -180 : westOf360,
                    maxLatitude: maxLat, maxLongitude: eastOf360 == -180 ? 180 : eastOf360)
            }
            return Bounds(minLatitude: minLat, minLongitude: minLon, maxLatitude: maxLat, maxLongitude: maxLon)
        }
    }

    /// A longitude brought into −180…180 (readers keep what the file says, and files say 180.88).
    static func normalized(_ longitude: Double) -> Double {
        if longitude >= -180 && longitude <= 180 { return longitude }
        var wrapped = longitude.truncatingRemainder(dividingBy: 360)
        if wrapped > 180 { wrapped -= 360 } else if wrapped < -180 { wrapped += 360 }
        return wrapped
    }

    enum CodingKeys: String, CodingKey {
        case minLatitude = "min_lat", minLongitude = "min_lon"
        case maxLatitude = "max_lat", maxLongitude = "max_lon"
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            minLatitude: try container.decode(Double.self, forKey: .minLatitude),
            minLongitude: try container.decode(Double.self, forKey: .minLongitude),
            maxLatitude: try container.decode(Double.self, forKey: .maxLatitude),
            maxLongitude: try container.decode(Double.self, forKey: .maxLongitude))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(minLatitude, forKey: .minLatitude)
        try container.encode(minLongitude, forKey: .minLongitude)
        try container.encode(maxLatitude, forKey: .maxLatitude)
        try container.encode(maxLongitude, forKey: .maxLongitude)
    }
}
