import Foundation

/// Web Mercator fitted to a frame.
struct WebMercatorFit: Sendable {
    let originX: Double, originY: Double, scale: Double
    let offsetX: Double, offsetY: Double
    let centerLongitude: Double

    static let maxLatitude = 85.05112877980659

    /// Spherical Web Mercator in radians of longitude: x = λ, y = ln tan(π/4 + φ/2).
    @inline(__always)
    static func mercator(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        let phi = min(max(latitude, -maxLatitude), maxLatitude) * .pi / 180
        return (longitude * .pi / 180, log(tan(.pi / 4 + phi / 2)))
    }

    /// Each segment's positions in Web Mercator, longitudes unwrapped along the route (a course
    /// across the antimeridian stays in one piece).
    static func project(_ segments: [[TrackPoint]]) -> [[(x: Double, y: Double)]] {
        var lines: [[(x: Double, y: Double)]] = []
        var previousLongitude: Double?
        for points in segments {
            var projected: [(x: Double, y: Double)] = []
            projected.reserveCapacity(points.count)
            for point in points {
                var longitude = point.longitude
                if let previous = previousLongitude {
                    longitude -= 360 * ((longitude - previous) / 360).rounded()
                }
                previousLongitude = longitude
                projected.append(mercator(latitude: point.latitude, longitude: longitude))
            }
            lines.append(projected)
        }
        return lines
    }

    init?(
        fitting lines: [[(x: Double, y: Double)]],
        into frame: (x: Double, y: Double, width: Double, height: Double), padding: Double
    ) {
        var minX = Double.infinity
        var maxX = -Double.infinity
        var minY = Double.infinity
        var maxY = -Double.infinity
        for line in lines {
            for p in line {
                minX = min(minX, p.x)
                maxX = max(maxX, p.x)
                minY = min(minY, p.y)
                maxY = max(maxY, p.y)
            }
        }
        guard minX <= maxX else { return nil }
        let spanX = maxX - minX
        let spanY = maxY - minY
        let availableX = max(frame.width - 2 * padding, 1)
        let availableY = max(frame.height - 2 * padding, 1)
        var scale = min(spanX > 0 ? availableX / spanX : .infinity, spanY > 0 ? availableY / spanY : .infinity)
        if !scale.isFinite { scale = 1 }  // a single position: any scale centres it
        originX = minX
        originY = maxY
        self.scale = scale
        offsetX = frame.x + (frame.width - spanX * scale) / 2
        offsetY = frame.y + (frame.height - spanY * scale) / 2
        centerLongitude = (minX + maxX) / 2 * 180 / .pi
    }

    @inline(__always)
    func pixel(_ p: (x: Double, y: Double)) -> (x: Double, y: Double) {
        (offsetX + (p.x - originX) * scale, offsetY + (originY - p.y) * scale)
    }
}
