extension Activity {
    /// Length with the segments of each track joined, metres: the hop from the last positioned
    /// point of one segment to the first of the next is counted, as if the recording never paused.
    ///
    /// ``ActivityStats/distanceMeters`` leaves those hops out, because a GPX segment break is a
    /// pause. In a TCX file each lap holds its own `<Track>`, so there the joined length is what
    /// the watch's "total distance" means. Different tracks (GPX `<trk>`s, TCX `<Activity>`s) are
    /// never joined; a planned course without a track is measured on its routes, each on its own.
    /// - Complexity: O(n) in the number of points.
    public func joinedDistanceMeters() -> Double {
        let groups: [[TrackPoint]] =
            isMeasuredOnRoutes
            ? routes.map(\.points)
            : tracks.map { $0.segments.flatMap(\.points) }
        return groups.reduce(0) { total, points in
            total + SegmentMeasurement(points: points, options: StatsOptions()).distanceMeters
        }
    }
}
