import Foundation

/// A flat east–north frame around one reference point, for indexing a run and finding the foot
/// point of a run leg nearest a course point. It never decides a distance: every distance the
/// matcher compares with its threshold is a geodesic one (``Geodesic/distance(from:to:)``).
///
/// Points go through WGS84 Earth-centred coordinates (ECEF, at zero height) and are projected
/// orthogonally onto the plane tangent to the ellipsoid at the reference. That has no trouble with
/// the antimeridian (longitudes never enter the arithmetic as differences) or the poles (no
/// `cos(latitude)` scale to divide by), and it is linear: a leg's chord maps to a straight
/// segment, and a fraction along it maps back to the same fraction along the chord.
///
/// Why its error is negligible here: a projection onto a plane shortens, never lengthens, and a
/// chord is never longer than the arc over it, so a plane distance is at most the geodesic one (to
/// rounding): filtering run legs by plane distance ≤ threshold cannot lose a leg the geodesic
/// would keep. How much shorter: the ellipsoid's normal at a point r away from the reference is
/// tilted by about r / R, which shortens lengths there by at most (r / R)² / 2: 5 × 10⁻⁶ at
/// 20 km, 1 mm on a 30 m distance; the chord of a 30 m arc is shorter by 30 m × (30 m / R)² / 24,
/// under a nanometre. The nearest point on a leg's chord is therefore the nearest point on its
/// geodesic to well under a millimetre for any run.
struct LocalTangentPlane: Sendable {
    /// WGS84 semi-major axis, metres.
    static let semiMajorAxis = 6_378_137.0
    /// WGS84 flattening.
    static let flattening = 1 / 298.257_223_563
    /// First eccentricity squared.
    static let eccentricitySquared = flattening * (2 - flattening)

    /// The reference point's Earth-centred position and its east and north unit vectors.
    let origin: SIMD3<Double>
    let east: SIMD3<Double>
    let north: SIMD3<Double>

    /// The plane tangent at `reference`.
    init(reference: Coordinate) {
        origin = Self.earthCentred(reference)
        let lat = reference.latitude * .pi / 180
        let lon = reference.longitude * .pi / 180
        east = SIMD3(-sin(lon), cos(lon), 0)
        north = SIMD3(-sin(lat) * cos(lon), -sin(lat) * sin(lon), cos(lat))
    }

    /// The WGS84 Earth-centred position of a point at zero height, metres.
    @inline(__always)
    static func earthCentred(_ coordinate: Coordinate) -> SIMD3<Double> {
        earthCentred(latitude: coordinate.latitude, longitude: coordinate.longitude)
    }

    @inline(__always)
    static func earthCentred(latitude: Double, longitude: Double) -> SIMD3<Double> {
        let lat = latitude * .pi / 180
        let lon = longitude * .pi / 180
        let sinLat = sin(lat)
        let cosLat = cos(lat)
        let radius = semiMajorAxis / (1 - eccentricitySquared * sinLat * sinLat).squareRoot()
        return SIMD3(
            radius * cosLat * cos(lon), radius * cosLat * sin(lon),
            radius * (1 - eccentricitySquared) * sinLat)
    }

    /// The latitude and longitude under an Earth-centred position (Bowring's formula, one step:
    /// sub-millimetre for points within kilometres of the surface, such as the middle of a chord).
    static func coordinate(of position: SIMD3<Double>) -> Coordinate {
        let a = semiMajorAxis
        let b = a * (1 - flattening)
        let secondEccentricitySquared = eccentricitySquared / (1 - eccentricitySquared)
        let p = (position.x * position.x + position.y * position.y).squareRoot()
        let theta = atan2(position.z * a, p * b)
        let sinTheta = sin(theta)
        let cosTheta = cos(theta)
        let latitude = atan2(
            position.z + secondEccentricitySquared * b * sinTheta * sinTheta * sinTheta,
            p - eccentricitySquared * a * cosTheta * cosTheta * cosTheta)
        return Coordinate(latitude: latitude * 180 / .pi, longitude: atan2(position.y, position.x) * 180 / .pi)
    }

    /// Metres east and north of the reference, in the tangent plane.
    @inline(__always)
    func project(_ position: SIMD3<Double>) -> SIMD2<Double> {
        let offset = position - origin
        return SIMD2((offset * east).sum(), (offset * north).sum())
    }
}
