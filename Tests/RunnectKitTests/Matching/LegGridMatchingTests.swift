import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

/// The spatial hash never loses a leg within reach, short or long; checked against every leg.
@Suite("Matching: leg grid")
struct LegGridMatchingTests {
    /// Squared distance from `q` to the segment `a`–`b`.
    static func squaredDistance(_ q: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        let ab = b - a
        let length = (ab * ab).sum()
        let t = length > 0 ? min(max(((q - a) * ab).sum() / length, 0), 1) : 0
        let offset = q - (a + ab * t)
        return (offset * offset).sum()
    }

    @Test("every leg within the radius is listed, for legs of 1 m to 2 km", arguments: [10.0, 30, 75])
    func noLegLost(radius: Double) {
        var random = SplitMix64(seed: 12)
        var points = [SIMD2<Double>(0, 0)]
        for _ in 0..<3_000 {
            // Mostly short legs, now and then a long one (a gap in the recording).
            let length = random.chance(1, in: 50) ? random.double(in: 100...2_000) : random.double(in: 1...6)
            let angle = random.double(in: 0...(2 * Double.pi))
            points.append(points.last! + SIMD2(cos(angle), sin(angle)) * length)
        }
        let grid = LegGrid(points: points, cellMeters: max(radius, 10))
        var listed = 0
        for _ in 0..<300 {
            let q = points[random.below(points.count)] + SIMD2(random.double(in: -80...80), random.double(in: -80...80))
            var near = Set<Int>()
            grid.legs(near: q, within: radius) { near.insert($0) }
            for leg in 0..<(points.count - 1)
            where Self.squaredDistance(q, points[leg], points[leg + 1]) <= radius * radius {
                #expect(near.contains(leg), "leg \(leg) within \(radius) m of \(q) not listed")
                listed += 1
            }
        }
        #expect(listed > 300)  // the check did check something
    }

    @Test("a chain frontier keeps only chains no other beats, and finds the best before a position")
    func frontier() {
        var frontier = ChainFrontier()
        frontier.insert(.init(covered: 10, start: 0), at: 5)
        frontier.insert(.init(covered: 8, start: 0), at: 7)  // later and worse: dropped
        #expect(frontier.best(atOrBefore: 7)?.covered == 10)
        frontier.insert(.init(covered: 12, start: 0), at: 3)  // earlier and better: replaces it
        #expect(frontier.best(atOrBefore: 4)?.covered == 12)
        #expect(frontier.best(atOrBefore: 2) == nil)
        frontier.insert(.init(covered: 12, start: 1), at: 3)  // same place, same length, later start
        #expect(frontier.best(atOrBefore: 3) == .init(covered: 12, start: 1))
        frontier.insert(.init(covered: 20, start: 0), at: 9)
        #expect(frontier.best(atOrBefore: 8.99)?.covered == 12)
        #expect(frontier.best?.covered == 20)
    }
}
