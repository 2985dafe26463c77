extension Activity {
    /// The first point of ``courseSegments`` holding a coordinate no reader writes: an infinite
    /// one, or one beyond ±90° of latitude or ±180° of longitude. (A point without a position
    /// holds NaN, as a TCX trackpoint without `<Position>` is read.)
    /// - Returns: The point's index over all the segments, from 0, and the point; `nil` when
    ///   every point is well formed.
    /// - Complexity: O(n) in the number of points.
    public func firstMalformedPoint() -> (index: Int, point: TrackPoint)? {
        var index = 0
        for segment in courseSegments {
            for point in segment {
                let (latitude, longitude) = (point.latitude, point.longitude)
                if latitude.isInfinite || longitude.isInfinite || abs(latitude) > 90 || abs(longitude) > 180 {
                    return (index, point)
                }
                index += 1
            }
        }
        return nil
    }

    /// The length of ``courseSegments``, as ``ActivityStats/distanceMeters`` measures it, without
    /// the rest of the figures.
    /// - Complexity: O(n) in the number of points.
    public func courseDistanceMeters() -> Double {
        courseSegments.reduce(0) { total, points in
            total + SegmentMeasurement(points: points, options: StatsOptions()).distanceMeters
        }
    }
}
