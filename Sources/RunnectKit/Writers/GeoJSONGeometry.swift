/// The geometry of one course as GeoJSON writes it: lines of `[lon, lat(, ele)]` positions, split
/// at the antimeridian (RFC 7946, section 3.1.9), and the box around them.
struct GeoJSONGeometry {
    struct Position: Equatable {
        var longitude: Double
        var latitude: Double
        var elevation: Double
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

        hasElevation = options.includeElevation && segments.allSatisfy { points in
            points.allSatisfy { $0.elevationMeters?.isFinite == true }
        }
        bounds = Bounds(enclosing: segments)
        if hasElevation {
            var low = Double.infinity, high = -Double.infinity
            for points in segments {
                for point in points {
                    let e = point.elevationMeters!
                    low = min(low, e)
                    high = max(high, e)
                }
            }
            elevationRange = low...high
        }

        for points in segments { appendSplitting(points) }
        if lines.isEmpty, let first = segments.first?.first {
            point = position(first)
        }
    }

    private func position(_ point: TrackPoint) -> Position {
        Position(longitude: Bounds.normalized(point.longitude), latitude: point.latitude,
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
            if next == last { continue }  // a repeated fix adds nothing to a line
            let delta = next.longitude - last.longitude
            if abs(delta) > 180 {
                // The shorter way round crosses the antimeridian: end at the edge, go on from the other.
                let edge: Double = last.longitude > 0 ? 180 : -180
                let unwrapped = next.longitude + (delta < 0 ? 360 : -360)
                let t = (edge - last.longitude) / (unwrapped - last.longitude)
                let crossing = Position(longitude: edge,
                                        latitude: last.latitude + t * (next.latitude - last.latitude),
                                        elevation: last.elevation + t * (next.elevation - last.elevation))
                if crossing != last { line.append(crossing) }
                finish(line)
                line = [Position(longitude: -edge, latitude: crossing.latitude, elevation: crossing.elevation)]
                if next != line[0] { line.append(next) }
            } else {
                line.append(next)
            }
        }
        finish(line)
    }

    private mutating func finish(_ line: [Position]) {
        if line.count >= 2 { lines.append(line) }
    }
}
