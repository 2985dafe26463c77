import Foundation

/// Douglas–Peucker line simplification: drops the points that lie within a tolerance of the line
/// through the points kept, always keeping the first and the last.
///
/// Iterative (an explicit stack, no recursion), so a million-point track cannot overflow the
/// call stack. Two measures:
/// - ``keptIndices(of:toleranceMeters:)`` measures on the sphere (mean Earth radius
///   6,371,008.8 m): the distance of a point to the great-circle arc between the two kept points,
///   or to the nearer end where the point lies beyond the arc. It has no trouble with the
///   antimeridian or the poles; against the WGS84 ellipsoid the distances differ by under 0.5 %.
/// - ``keptIndices(x:y:tolerance:)`` measures in the plane (pixels of a projected preview).
///
/// - Complexity: O(n log n) for typical tracks, O(n²) in the worst case (a spiral).
public enum Simplifier {
    /// The mean Earth radius (IUGG R₁), metres.
    public static let earthRadiusMeters = 6_371_008.8

    /// The indices of the points Douglas–Peucker keeps, increasing.
    ///
    /// Points without a usable position (non-finite coordinates, a latitude outside ±90°) are
    /// dropped. The first and last positioned points are always kept; a tolerance of 0 or less
    /// (or not finite) keeps every positioned point.
    /// - Parameters:
    ///   - points: A segment, in order.
    ///   - toleranceMeters: The largest distance, metres, a dropped point may lie from the
    ///     simplified line.
    /// - Returns: Indices into `points`.
    public static func keptIndices(of points: [TrackPoint], toleranceMeters: Double) -> [Int] {
        var positioned: [Int] = []
        positioned.reserveCapacity(points.count)
        for (index, point) in points.enumerated() where SegmentMeasurement.hasPosition(point) {
            positioned.append(index)
        }
        guard toleranceMeters > 0, toleranceMeters.isFinite, positioned.count > 2 else { return positioned }

        let count = positioned.count
        var xs = [Double](repeating: 0, count: count)
        var ys = xs
        var zs = xs
        let radians = Double.pi / 180
        for (k, index) in positioned.enumerated() {
            let point = points[index]
            let lat = point.latitude * radians
            let lon = point.longitude * radians
            let cosLat = cos(lat)
            xs[k] = cosLat * cos(lon)
            ys[k] = cosLat * sin(lon)
            zs[k] = sin(lat)
        }
        // Distances compare as squared chords of the angle they subtend on the unit sphere.
        let angle = min(toleranceMeters / earthRadiusMeters, Double.pi / 2)
        let chord = 2 * sin(angle / 2)
        let threshold = chord * chord

        let kept = xs.withUnsafeBufferPointer { x in
            ys.withUnsafeBufferPointer { y in
                zs.withUnsafeBufferPointer { z in
                    douglasPeucker(count: count, threshold: threshold) { first, last in
                        farthestOnSphere(x: x, y: y, z: z, first: first, last: last)
                    }
                }
            }
        }
        return kept.map { positioned[$0] }
    }

    /// The points Douglas–Peucker keeps (see ``keptIndices(of:toleranceMeters:)``).
    public static func simplified(_ points: [TrackPoint], toleranceMeters: Double) -> [TrackPoint] {
        keptIndices(of: points, toleranceMeters: toleranceMeters).map { points[$0] }
    }

    /// The indices of the planar points Douglas–Peucker keeps, increasing: the first and the last
    /// always, and every point farther than `tolerance` from the line kept around it.
    /// - Parameters:
    ///   - x: Abscissas (pixels, or any planar unit).
    ///   - y: Ordinates, as many as `x`.
    ///   - tolerance: In the unit of `x` and `y`; 0 or less keeps every point.
    public static func keptIndices(x: [Double], y: [Double], tolerance: Double) -> [Int] {
        precondition(x.count == y.count, "x and y must have the same length")
        let count = x.count
        guard tolerance > 0, tolerance.isFinite, count > 2 else { return Array(0..<count) }
        return x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                douglasPeucker(count: count, threshold: tolerance * tolerance) { first, last in
                    farthestInPlane(x: x, y: y, first: first, last: last)
                }
            }
        }
    }

    // MARK: - Driver

    /// Runs Douglas–Peucker over `0..<count` with an explicit stack. `farthest(first, last)`
    /// gives the interior point farthest from the line `first`–`last` and its (squared) distance.
    @inline(__always)
    private static func douglasPeucker(
        count: Int, threshold: Double,
        farthest: (Int, Int) -> (index: Int, distance: Double)
    ) -> [Int] {
        var keep = [Bool](repeating: false, count: count)
        keep[0] = true
        keep[count - 1] = true
        var stack: [(Int, Int)] = [(0, count - 1)]
        while let (first, last) = stack.popLast() {
            guard last - first > 1 else { continue }
            let (index, distance) = farthest(first, last)
            if distance > threshold {
                keep[index] = true
                stack.append((first, index))
                stack.append((index, last))
            }
        }
        var result: [Int] = []
        for index in 0..<count where keep[index] { result.append(index) }
        return result
    }

    // MARK: - Measures

    /// Interior point farthest from the great-circle arc `first`–`last`, as a squared chord.
    @inline(__always)
    private static func farthestOnSphere(
        x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>,
        z: UnsafeBufferPointer<Double>, first: Int, last: Int
    )
        -> (index: Int, distance: Double)
    {
        let ax = x[first]
        let ay = y[first]
        let az = z[first]
        let bx = x[last]
        let by = y[last]
        let bz = z[last]
        // Normal of the great circle through a and b.
        var nx = ay * bz - az * by
        var ny = az * bx - ax * bz
        var nz = ax * by - ay * bx
        let norm = (nx * nx + ny * ny + nz * nz).squareRoot()
        var best = -1.0
        var bestIndex = first + 1
        if norm < 1e-15 {
            // a and b coincide (a loop back to its start): distance to a.
            for i in (first + 1)..<last {
                let dx = x[i] - ax
                let dy = y[i] - ay
                let dz = z[i] - az
                let d = dx * dx + dy * dy + dz * dz
                if d > best {
                    best = d
                    bestIndex = i
                }
            }
            return (bestIndex, best)
        }
        nx /= norm
        ny /= norm
        nz /= norm
        for i in (first + 1)..<last {
            let px = x[i]
            let py = y[i]
            let pz = z[i]
            // p lies between a and b along the arc when both (a × p)·n and (p × b)·n are ≥ 0.
            let ap = (ay * pz - az * py) * nx + (az * px - ax * pz) * ny + (ax * py - ay * px) * nz
            let pb = (py * bz - pz * by) * nx + (pz * bx - px * bz) * ny + (px * by - py * bx) * nz
            let d: Double
            if ap >= 0 && pb >= 0 {
                // sin of the cross-track angle, turned into the squared chord of that angle
                // (2 − 2 cos θ = 2 s² / (1 + √(1 − s²)), no cancellation for small angles).
                let s = px * nx + py * ny + pz * nz
                let s2 = min(s * s, 1)
                d = 2 * s2 / (1 + (1 - s2).squareRoot())
            } else {
                let dax = px - ax
                let day = py - ay
                let daz = pz - az
                let dbx = px - bx
                let dby = py - by
                let dbz = pz - bz
                d = min(dax * dax + day * day + daz * daz, dbx * dbx + dby * dby + dbz * dbz)
            }
            if d > best {
                best = d
                bestIndex = i
            }
        }
        return (bestIndex, best)
    }

    /// Interior point farthest from the planar segment `first`–`last`, as a squared distance.
    @inline(__always)
    private static func farthestInPlane(
        x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>,
        first: Int, last: Int
    ) -> (index: Int, distance: Double) {
        let ax = x[first]
        let ay = y[first]
        let dx = x[last] - ax
        let dy = y[last] - ay
        let length2 = dx * dx + dy * dy
        var best = -1.0
        var bestIndex = first + 1
        for i in (first + 1)..<last {
            let px = x[i] - ax
            let py = y[i] - ay
            let d: Double
            if length2 == 0 {
                d = px * px + py * py
            } else {
                let t = min(max((px * dx + py * dy) / length2, 0), 1)
                let ex = px - t * dx
                let ey = py - t * dy
                d = ex * ex + ey * ey
            }
            if d > best {
                best = d
                bestIndex = i
            }
        }
        return (bestIndex, best)
    }
}
