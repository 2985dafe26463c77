extension Bounds {
    /// The smallest box holding every box given, or `nil` for none.
    ///
    /// Longitudes are arcs on a circle: the result leaves out the widest stretch of longitude
    /// that no box covers, so boxes on both sides of the antimeridian give a box that crosses it
    /// (RFC 7946, section 5.2) rather than one spanning the globe.
    /// - Complexity: O(n log n) in the number of boxes.
    public init?(enclosing boxes: [Bounds]) {
        guard !boxes.isEmpty else { return nil }
        var minLat = Double.infinity
        var maxLat = -Double.infinity
        // Each box as an arc (start in 0..<360, width in 0...360); edges are given back as the
        // boxes have them, never recomputed through ±360 (which would add rounding noise).
        var arcs: [(start: Double, width: Double, west: Double, east: Double)] = []
        arcs.reserveCapacity(boxes.count)
        for box in boxes {
            minLat = Swift.min(minLat, box.minLatitude)
            maxLat = Swift.max(maxLat, box.maxLatitude)
            var start = box.minLongitude.truncatingRemainder(dividingBy: 360)
            if start < 0 { start += 360 }
            var width = box.maxLongitude - box.minLongitude
            if width < 0 { width += 360 }
            arcs.append((start, Swift.min(width, 360), box.minLongitude, box.maxLongitude))
        }
        arcs.sort { $0.start < $1.start }
        let origin = arcs[0].start
        // How far the arcs seen so far reach, and the eastern edge that reaches there.
        var coveredTo = origin + arcs[0].width
        var coveredEast = arcs[0].east
        var gaps: [(from: Double, to: Double, east: Double, west: Double)] = []
        for arc in arcs.dropFirst() {
            if arc.start > coveredTo { gaps.append((coveredTo, arc.start, coveredEast, arc.west)) }
            if arc.start + arc.width > coveredTo {
                coveredTo = arc.start + arc.width
                coveredEast = arc.east
            }
        }
        if coveredTo < origin + 360 { gaps.append((coveredTo, origin + 360, coveredEast, arcs[0].west)) }
        // Arcs that run past origin + 360 wrap round and cover the start of the early gaps.
        let wrapped = coveredTo - 360
        var widest: (width: Double, east: Double, west: Double)?
        for gap in gaps {
            let (from, east) = wrapped > gap.from ? (wrapped, coveredEast) : (gap.from, gap.east)
            guard gap.to > from else { continue }
            if widest.map({ gap.to - from > $0.width }) ?? true { widest = (gap.to - from, east, gap.west) }
        }
        guard let widest else {
            self.init(minLatitude: minLat, minLongitude: -180, maxLatitude: maxLat, maxLongitude: 180)
            return
        }
        // 180° and −180° are one meridian: an edge there is written so the box does not wrap.
        let west = Self.normalized(widest.west)
        let east = Self.normalized(widest.east)
        self.init(
            minLatitude: minLat, minLongitude: west == 180 ? -180 : west,
            maxLatitude: maxLat, maxLongitude: east == -180 ? 180 : east)
    }
}
