import Foundation

/// Elevation against distance, drawn into a band of a preview: a line and the area under it, as
/// SVG path data.
struct ElevationProfile {
    let line: String
    let area: String

    /// `nil` when no point has an elevation or the course has no length.
    init?(
        segments: [[TrackPoint]], frame: (x: Double, y: Double, width: Double, height: Double),
        tolerance: Double
    ) {
        // Distances on the sphere are plenty for a band a few hundred pixels wide.
        var distances: [Double] = []
        var elevations: [Double] = []
        var total = 0.0
        let radians = Double.pi / 180
        for points in segments {
            var previous: TrackPoint?
            for point in points {
                if let previous {
                    let dLat = (point.latitude - previous.latitude) * radians
                    var dLon = (point.longitude - previous.longitude) * radians
                    if dLon > .pi { dLon -= 2 * .pi } else if dLon < -.pi { dLon += 2 * .pi }
                    let a =
                        sin(dLat / 2) * sin(dLat / 2)
                        + cos(previous.latitude * radians) * cos(point.latitude * radians) * sin(dLon / 2)
                        * sin(dLon / 2)
                    total += 2 * Simplifier.earthRadiusMeters * asin(min(1, a.squareRoot()))
                }
                previous = point
                if let elevation = point.elevationMeters, elevation.isFinite {
                    distances.append(total)
                    elevations.append(elevation)
                }
            }
        }
        guard !elevations.isEmpty, total > 0 else { return nil }
        // One mean elevation per pixel column: finer detail (and the barometer's noise) cannot be
        // seen, and would make the text grow with the number of points.
        let columns = max(Int(frame.width.rounded()), 1)
        var sums = [Double](repeating: 0, count: columns)
        var counts = [Int](repeating: 0, count: columns)
        for (distance, elevation) in zip(distances, elevations) {
            let column = min(Int(distance / total * Double(columns)), columns - 1)
            sums[column] += elevation
            counts[column] += 1
        }
        var xs: [Double] = []
        var means: [Double] = []
        for column in 0..<columns where counts[column] > 0 {
            xs.append(frame.x + (Double(column) + 0.5) / Double(columns) * frame.width)
            means.append(sums[column] / Double(counts[column]))
        }
        let low = means.min()!
        let high = means.max()!
        let span = high - low
        let ys = means.map { span > 0 ? frame.y + (high - $0) / span * frame.height : frame.y + frame.height / 2 }
        var path = SVGPathData()
        path.addSubpath(Array(zip(xs, ys).map { (x: $0, y: $1) }), tolerance: tolerance)
        line = path.text
        let baseline = SVGPathData.format(frame.y + frame.height)
        area = line + "V\(baseline)H\(SVGPathData.format(xs[0]))Z"
    }
}
