import Foundation
import RunnectKit

/// Longitude-latitude boxes that hold every point within a distance of a point, and lower bounds
/// of the distance to a box: what lets an R*Tree of course or piece boxes propose what a near-me
/// search must measure, without missing one.
///
/// Both rest on two facts of the ellipsoid's metric, `ds² = M² dφ² + N² cos²φ dλ²`: a path that
/// changes latitude by Δφ is at least `M_min · Δφ` long (`M_min = a (1 − e²)`, the smallest
/// meridian radius of curvature), and one that changes longitude by Δλ while staying at latitudes
/// of at most |φ| is at least `a · cos φ · Δλ` long (`N ≥ a`). The geodesic from the point to
/// anything within ρ stays within ρ of it, so within latitudes `φ₀ ± ρ / M_min`.
package struct NearbyBox: Equatable, Sendable {
    /// Degrees; `minLatitude ≤ maxLatitude`.
    package var minLatitude: Double
    package var maxLatitude: Double
    /// One or two longitude ranges (two when the box crosses the antimeridian), degrees.
    package var longitudes: [ClosedRange<Double>]

    /// WGS84: the equatorial radius and the smallest meridian radius of curvature, metres.
    static let equatorialRadius = 6_378_137.0
    static let smallestMeridianRadius = 6_378_137.0 * (1 - 0.006_694_379_990_141_317)

    /// How far past its points' box a course's path may bow (a geodesic leg bulges poleward of
    /// its ends: 1.5 cm for a 1 km leg at Seoul's latitude, 1 km for a 250 km one). Course boxes
    /// are made from the points, so queries widen their latitudes by this much.
    /// That holds for legs up to about 250 km at Seoul's latitude, 100 km at 80°.
    static let legBulgeDegrees = 0.01
    /// Past this latitude a leg can pass over the pole, far poleward of its ends: boxes that
    /// reach it are searched and measured whole (no bound prunes them).
    static let polarLatitude = 80.0

    /// The latitude band that holds every point within `meters` of `point`.
    static func latitudeReach(_ meters: Double) -> Double {
        meters / smallestMeridianRadius * 180 / .pi
    }

    /// The box that holds every point within `meters` of `point`, its latitudes widened by
    /// `bulgeDegrees` to meet the box of any course whose path comes that close (0 for the boxes
    /// of `course_piece`, which hold their legs' bulge).
    package init(around point: Coordinate, meters: Double, bulgeDegrees: Double = legBulgeDegrees) {
        let reach = Self.latitudeReach(meters)
        minLatitude = max(-90, point.latitude - reach - bulgeDegrees)
        maxLatitude = min(90, point.latitude + reach + bulgeDegrees)
        if maxLatitude > Self.polarLatitude {
            (minLatitude, maxLatitude) = (min(minLatitude, Self.polarLatitude), 90)
        }
        if minLatitude < -Self.polarLatitude {
            (minLatitude, maxLatitude) = (-90, max(maxLatitude, -Self.polarLatitude))
        }
        let highest = max(abs(minLatitude), abs(maxLatitude))
        let cosine = cos(highest * .pi / 180)
        let spread = cosine > 1e-9 ? meters / (Self.equatorialRadius * cosine) * 180 / .pi : .infinity
        guard spread < 180 else {
            longitudes = [-180...180]
            return
        }
        let west = point.longitude - spread
        let east = point.longitude + spread
        if west < -180 {
            longitudes = [-180...east, (west + 360)...180]
        } else if east > 180 {
            longitudes = [west...180, -180...(east - 360)]
        } else {
            longitudes = [west...east]
        }
    }

    /// A lower bound of the distance from `point` to anything in the box `latitudes` ×
    /// `longitudes` (a course's box), valid for distances up to `meters`: if the true distance is
    /// at most `meters`, it is at least the bound. `bulgeDegrees` as for ``init(around:meters:bulgeDegrees:)``.
    static func lowerBound(
        from point: Coordinate, latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>, upTo meters: Double,
        bulgeDegrees: Double = legBulgeDegrees
    ) -> Double {
        let south = latitudes.lowerBound - bulgeDegrees
        let north = latitudes.upperBound + bulgeDegrees
        guard max(abs(south), abs(north)) <= polarLatitude else { return 0 }
        let latitudeGap =
            point.latitude < south ? south - point.latitude : point.latitude > north ? point.latitude - north : 0
        var longitudeGap = 0.0
        if !longitudes.contains(point.longitude) {
            func east(_ from: Double, _ to: Double) -> Double {
                let d = (to - from).truncatingRemainder(dividingBy: 360)
                return d < 0 ? d + 360 : d
            }
            longitudeGap = min(
                east(point.longitude, longitudes.lowerBound), east(longitudes.upperBound, point.longitude))
        }
        let byLatitude = smallestMeridianRadius * latitudeGap * .pi / 180
        let highest = min(90, abs(point.latitude) + latitudeReach(meters))
        let byLongitude = equatorialRadius * cos(highest * .pi / 180) * longitudeGap * .pi / 180
        return max(byLatitude, byLongitude, 0)
    }
}
