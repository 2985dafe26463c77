/// The geometry of one course as GeoJSON writes it: lines of `[lon, lat(, ele)]` positions, split
/// at the antimeridian (RFC 7946, section 3.1.9), and the box around them.
struct GeoJSONGeometry {
    struct Position: Equatable {
        var longitude: Double
        var latitude: Double
        var elevation: Double

        func samePlace(as other: Position) -> Bool {
            longitude == other.longitude && latitude == other.latitude
        }
    }

    /// Lines of two or more positions, none crossing ±180° between consecutive positions.
    var lines: [[Position]] = []
    /// The only position of a course that has no line (a single point), else `nil`.
    var point: Position?
    /// Whether positions carry an elevation.
    var hasElevation = false
    /// The box around every position (crossing the antimeridian where the course does).
    var bounds: Bounds?
    /// Lowest and highest elevation, when ``hasElevation``.
    var elevationRange: ClosedRange<Double>?

    init(activity: Activity, options: GeoJSONOptions) {
        // Positioned points of every segment, simplified when asked.
        var segments: [[TrackPoint]] = []
        for points in activity.courseSegments {
            let kept: [TrackPoint]
            if let tolerance = options.simplifyToleranceMeters, tolerance > 0 {
                kept = Simplifier.simplified(points, toleranceMeters: tolerance)
            } else {
                kept = points.filter(SegmentMeasurement.hasPosition)
            }
            if !kept.isEmpty { segments.append(kept) }
        }
        guard !segments.isEmpty else { return }

        hasElevation =
            options.includeElevation
            && segments.allSatisfy { points in
                points.allSatisfy { $0.elevationMeters?.isFinite == true }
            }
        // A segment of one position has no line; the box and the elevations are those of what is
        // written.
        var written: [[TrackPoint]] = []
        for points in segments {
            let before = lines.count
            appendSplitting(points)
            if lines.count > before { written.append(points) }
        }
        if lines.isEmpty, let first = segments.first?.first {
            point = position(first)
            written = [[first]]
        }
        bounds = Bounds(enclosing: written)
        if hasElevation {
            var low = Double.infinity
            var high = -Double.infinity
            for points in written {
                for point in points {
                    let e = point.elevationMeters!
                    low = min(low, e)
                    high = max(high, e)
                }
            }
            elevationRange = low...high
        }
    }

    private func position(_ point: TrackPoint) -> Position {
        Position(
            longitude: Bounds.normalized(point.longitude), latitude: point.latitude,
            elevation: hasElevation ? point.elevationMeters! : 0)
    }

    /// Adds one segment as one or more lines, cut where a leg crosses ±180°.
    private mutating func appendSplitting(_ points: [TrackPoint]) {
        var line: [Position] = []
        line.reserveCapacity(points.count)
        for point in points {
            let next = position(point)
            guard let last = line.last else {
                line.append(next)
                continue
            }
            let delta = next.longitude - last.longitude
            if abs(delta) > 180 {
                // The shorter way round crosses the antimeridian: end at the edge, go on from the other.
                let edge: Double = last.longitude > 0 ? 180 : -180
                let unwrapped = next.longitude + (delta < 0 ? 360 : -360)
                // From 180° straight to −180° (one meridian) the leg meets the edge at its end.
                let t = unwrapped == last.longitude ? 1 : (edge - last.longitude) / (unwrapped - last.longitude)
                let crossing = Position(
                    longitude: edge,
                    latitude: last.latitude + t * (next.latitude - last.latitude),
                    elevation: last.elevation + t * (next.elevation - last.elevation))
                if !crossing.samePlace(as: last) { line.append(crossing) }
                finish(line)
                line = [Position(longitude: -edge, latitude: crossing.latitude, elevation: crossing.elevation)]
                if !next.samePlace(as: line[0]) { line.append(next) }
            } else {
                line.append(next)
            }
        }
        finish(line)
    }

    /// Keeps a line that has two distinct positions (RFC 7946 and simple-features readers want
    /// them); repeated fixes within a line are kept as the file has them.
    private mutating func finish(_ line: [Position]) {
        guard let first = line.first, line.contains(where: { !$0.samePlace(as: first) }) else { return }
        lines.append(line)
    }
}
