import CGeographicLib

extension Geodesic {
    /// The closest point of a geodesic leg to a given point, and how far it is.
    public struct LegProximity: Hashable, Sendable {
        /// Length of the shortest geodesic from the point to ``closest``, metres.
        public var distanceMeters: Double
        /// The point of the leg closest to the point: one of its ends, or a point between them
        /// where the geodesic to the point meets the leg at right angles.
        public var closest: Coordinate
    }

    /// The shortest distance from `point` to the geodesic leg from `start` to `end`, with the
    /// point of the leg where it is reached.
    ///
    /// The distance is to the closest point *on* the leg, not to its nearer end: a drawn course's
    /// legs are often hundreds of metres long. GeographicLib has no call for it; it is solved as
    /// Karney's interception problem, iterating with the gnomonic projection centred at the
    /// current estimate and clamped to the leg's ends, to about 10 µm (a golden-section search
    /// along the leg where the three points are too far apart for the projection).
    ///
    /// - Returns: `nil` when a coordinate is not finite or a latitude lies outside −90…90.
    public static func proximity(of point: Coordinate, toLegFrom start: Coordinate, to end: Coordinate)
        -> LegProximity?
    {
        var latitude = 0.0
        var longitude = 0.0
        let meters = rk_geod_point_leg_distance(
            point.latitude, point.longitude, start.latitude, start.longitude, end.latitude, end.longitude,
            &latitude, &longitude)
        guard meters.isFinite else { return nil }
        return LegProximity(distanceMeters: meters, closest: Coordinate(latitude: latitude, longitude: longitude))
    }

    /// The shortest distance from `point` to a path of geodesic legs between consecutive points
    /// (a path of one point: the distance to it), metres.
    ///
    /// Only the legs that could be closer than `cutoff` and than the best leg so far are solved
    /// exactly (see ``proximity(of:toLegFrom:to:)``), in the order of a lower bound that costs a
    /// few multiplications per leg (the straight-line distance in space to the leg's chord, less
    /// the most a geodesic of its length bows away from it): a query whose answer lies under a
    /// kilometre away solves one or two legs of a course of hundreds.
    ///
    /// - Parameters:
    ///   - point: Where the distance is measured from.
    ///   - path: The path's points, read in place through the key paths (as
    ///     ``legLengths(of:latitude:longitude:into:)`` reads them).
    ///   - latitude: Where a point keeps its latitude, degrees.
    ///   - longitude: Where a point keeps its longitude, degrees.
    ///   - cutoff: Distances above it are not asked for: the result is then some value above
    ///     `cutoff` (possibly infinity), never below. `.infinity` (the default) always gives the
    ///     exact distance.
    /// - Returns: The distance, exact when it is at most `cutoff`; `.infinity` for an empty path;
    ///   `nil` when a coordinate is not finite or a latitude lies outside −90…90.
    /// - Complexity: O(n log n) for the bounds of n legs, plus the few legs solved.
    public static func distance<Point>(
        from point: Coordinate, toPath path: UnsafeBufferPointer<Point>,
        latitude: KeyPath<Point, Double>, longitude: KeyPath<Point, Double>, cutoff: Double = .infinity
    ) -> Double? {
        guard let base = path.baseAddress else { return .infinity }
        guard let latOffset = MemoryLayout<Point>.offset(of: latitude),
            let lonOffset = MemoryLayout<Point>.offset(of: longitude)
        else {
            let coordinates = path.map {
                Coordinate(latitude: $0[keyPath: latitude], longitude: $0[keyPath: longitude])
            }
            return coordinates.withUnsafeBufferPointer {
                distance(from: point, toPath: $0, latitude: \.latitude, longitude: \.longitude, cutoff: cutoff)
            }
        }
        let raw = UnsafeRawPointer(base)
        let meters = rk_geod_point_path_distance(
            point.latitude, point.longitude,
            raw.advanced(by: latOffset).assumingMemoryBound(to: Double.self),
            raw.advanced(by: lonOffset).assumingMemoryBound(to: Double.self),
            MemoryLayout<Point>.stride, path.count, cutoff, nil)
        return meters.isNaN ? nil : meters
    }

    /// The shortest distance from `point` to a path of coordinates; see
    /// ``distance(from:toPath:latitude:longitude:cutoff:)``.
    public static func distance(from point: Coordinate, toPath path: [Coordinate], cutoff: Double = .infinity)
        -> Double?
    {
        path.withUnsafeBufferPointer {
            distance(from: point, toPath: $0, latitude: \.latitude, longitude: \.longitude, cutoff: cutoff)
        }
    }

    /// The shortest distance from `point` to any of `segments`, each a path of legs between its
    /// consecutive points (no leg joins two segments); points without a usable position (see
    /// ``TrackPoint``) are left out, their neighbours joined. What near-me search measures to a
    /// course's ``Activity/courseSegments``.
    ///
    /// - Parameters:
    ///   - point: Where the distance is measured from.
    ///   - segments: The paths, each measured on its own.
    ///   - cutoff: As for ``distance(from:toPath:latitude:longitude:cutoff:)``.
    /// - Returns: The distance, exact when at most `cutoff`; `.infinity` when no segment holds a
    ///   point; `nil` for an invalid `point`.
    public static func distance(from point: Coordinate, toSegments segments: [[TrackPoint]], cutoff: Double = .infinity)
        -> Double?
    {
        guard point.latitude.isFinite, point.longitude.isFinite, abs(point.latitude) <= 90 else { return nil }
        var best = Double.infinity
        for segment in segments where !segment.isEmpty {
            let limit = min(cutoff, best)
            let meters: Double?
            if segment.allSatisfy(SegmentMeasurement.hasPosition) {
                meters = segment.withUnsafeBufferPointer {
                    distance(from: point, toPath: $0, latitude: \.latitude, longitude: \.longitude, cutoff: limit)
                }
            } else {
                let kept = segment.filter(SegmentMeasurement.hasPosition)
                meters = kept.withUnsafeBufferPointer {
                    distance(from: point, toPath: $0, latitude: \.latitude, longitude: \.longitude, cutoff: limit)
                }
            }
            if let meters, meters < best { best = meters }
        }
        return best
    }
}
