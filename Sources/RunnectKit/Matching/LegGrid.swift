/// A spatial hash of a run's legs in its tangent plane: square cells, each listing the legs that
/// pass through it.
///
/// Every leg within a radius of a point passes through a cell within that radius of the point
/// (the leg's nearest point lies in one), so ``legs(near:within:_:)`` looks up only those: with
/// cells as wide as the radius, at most the 3 × 3 cells around the point's cell, and usually
/// eight of them.
///
/// Storage is flat: the (cell, leg) pairs sorted by cell, and an open-addressing table from cell to
/// its range of pairs: about 100 kB for a 10,000-point run.
struct LegGrid: Sendable {
    /// Width of a cell, metres.
    let cellMeters: Double
    /// Legs of every cell, cell after cell.
    private let legIndices: [Int32]
    /// Open-addressing table: a cell's key, and the range of its legs in ``legIndices``.
    private let keys: [Int64]
    private let starts: [Int32]
    private let counts: [Int32]
    private let mask: Int

    /// Marks an empty slot of the table (no real cell has it: cell coordinates fit in 31 bits).
    private static let emptyKey = Int64.min

    /// Indexes the legs `points[i]`–`points[i + 1]`.
    init(points: [SIMD2<Double>], cellMeters: Double) {
        self.cellMeters = cellMeters
        var pairs: [(key: Int64, leg: Int32)] = []
        pairs.reserveCapacity(points.count + points.count / 2)
        if points.count >= 2 {
            for leg in 0..<(points.count - 1) {
                Self.cells(from: points[leg], to: points[leg + 1], cellMeters: cellMeters) { key in
                    pairs.append((key, Int32(leg)))
                }
            }
        }
        pairs.sort { $0.key < $1.key || ($0.key == $1.key && $0.leg < $1.leg) }

        var legIndices: [Int32] = []
        legIndices.reserveCapacity(pairs.count)
        var cells: [(key: Int64, start: Int32, count: Int32)] = []
        for pair in pairs {
            if let last = cells.last, last.key == pair.key {
                if legIndices.last == pair.leg { continue }
                cells[cells.count - 1].count += 1
            } else {
                cells.append((pair.key, Int32(legIndices.count), 1))
            }
            legIndices.append(pair.leg)
        }
        var capacity = 16
        while capacity < cells.count * 2 { capacity *= 2 }
        var keys = [Int64](repeating: Self.emptyKey, count: capacity)
        var starts = [Int32](repeating: 0, count: capacity)
        var counts = [Int32](repeating: 0, count: capacity)
        for cell in cells {
            var slot = Self.slot(cell.key, mask: capacity - 1)
            while keys[slot] != Self.emptyKey { slot = (slot + 1) & (capacity - 1) }
            keys[slot] = cell.key
            starts[slot] = cell.start
            counts[slot] = cell.count
        }
        self.legIndices = legIndices
        self.keys = keys
        self.starts = starts
        self.counts = counts
        self.mask = capacity - 1
    }

    /// Calls `body` with the legs of the cells within `radius` of `point`; a leg may come more
    /// than once.
    @inline(__always)
    func legs(near point: SIMD2<Double>, within radius: Double, _ body: (Int) -> Void) {
        let (cx, cy) = Self.cell(of: point, cellMeters: cellMeters)
        let span = Int((radius / cellMeters).rounded(.up))
        // Where the point lies in its cell: a cell whose nearest edge or corner is farther than
        // `radius` holds nothing within reach.
        let inX = point.x - Double(cx) * cellMeters
        let inY = point.y - Double(cy) * cellMeters
        let reach = radius * radius
        for dx in -span...span {
            let gapX = dx < 0 ? inX + Double(-dx - 1) * cellMeters : dx > 0 ? Double(dx) * cellMeters - inX : 0
            for dy in -span...span {
                let gapY = dy < 0 ? inY + Double(-dy - 1) * cellMeters : dy > 0 ? Double(dy) * cellMeters - inY : 0
                guard gapX * gapX + gapY * gapY <= reach else { continue }
                let key = Self.key(cx + dx, cy + dy)
                var slot = Self.slot(key, mask: mask)
                while true {
                    let found = keys[slot]
                    if found == key {
                        let start = Int(starts[slot])
                        for index in start..<(start + Int(counts[slot])) { body(Int(legIndices[index])) }
                        break
                    }
                    if found == Self.emptyKey { break }
                    slot = (slot + 1) & mask
                }
            }
        }
    }

    /// Every cell the segment `a`–`b` passes through (some more, never fewer), as keys.
    private static func cells(
        from a: SIMD2<Double>, to b: SIMD2<Double>, cellMeters: Double,
        _ body: (Int64) -> Void
    ) {
        let (ax, ay) = cell(of: a, cellMeters: cellMeters)
        let (bx, by) = cell(of: b, cellMeters: cellMeters)
        if abs(ax - bx) <= 1 && abs(ay - by) <= 1 {
            // Short legs (nearly all): the cells of their bounding box.
            for x in min(ax, bx)...max(ax, bx) {
                for y in min(ay, by)...max(ay, by) { body(key(x, y)) }
            }
            return
        }
        // A long leg (a gap in the recording): points along it at most one cell apart; every
        // point of the leg lies within half a cell of one of them, so in one of its 3 × 3 cells.
        let length = ((b - a) * (b - a)).sum().squareRoot()
        let steps = Int((length / cellMeters).rounded(.up))
        for step in 0...steps {
            let (x, y) = cell(of: a + (b - a) * (Double(step) / Double(steps)), cellMeters: cellMeters)
            for dx in -1...1 {
                for dy in -1...1 { body(key(x + dx, y + dy)) }
            }
        }
    }

    @inline(__always)
    private static func cell(of point: SIMD2<Double>, cellMeters: Double) -> (Int, Int) {
        // Clamped so that a point on the far side of the Earth still has a cell.
        let limit = Double(1 << 30)
        let x = min(max((point.x / cellMeters).rounded(.down), -limit), limit)
        let y = min(max((point.y / cellMeters).rounded(.down), -limit), limit)
        return (Int(x), Int(y))
    }

    @inline(__always)
    private static func key(_ x: Int, _ y: Int) -> Int64 {
        Int64(x) << 32 | Int64(UInt32(truncatingIfNeeded: y))
    }

    @inline(__always)
    private static func slot(_ key: Int64, mask: Int) -> Int {
        let mixed = UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 32) & mask
    }
}
