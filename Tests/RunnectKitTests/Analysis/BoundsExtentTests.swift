import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

/// The activity's bounds are gathered per segment on the second core and joined in order: the box
/// must be the one a single pass over every point gives.
@Suite("Analysis: bounds gathered in parts")
struct BoundsExtentTests {
    /// Points near the antimeridian and elsewhere, with the edge cases of the two representations:
    /// 180 and −180 (one meridian), longitudes beyond ±180 as files give them, and no position.
    static func points(count: Int, random: inout SplitMix64) -> [TrackPoint] {
        let longitudes: [Double] = [180, -180, 179.99, -179.99, 180.88, -181.5, 0, 127.06, -0.5, 90, -90]
        return (0..<count).map { _ in
            let pick = Int(random.next() % UInt64(longitudes.count + 3))
            let longitude =
                pick < longitudes.count ? longitudes[pick] : Double(random.next() % 360_000) / 1_000 - 180
            let latitude = random.next() % 17 == 0 ? 91 : Double(random.next() % 180_000) / 1_000 - 90
            return TrackPoint(latitude: latitude, longitude: longitude)
        }
    }

    @Test("joined in order at any cut, the extents give the box of one pass", arguments: [1, 2, 3, 4, 5])
    func joinedExtents(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for _ in 0..<200 {
            let points = Self.points(count: 1 + Int(random.next() % 12), random: &random)
            let whole = Bounds(enclosing: [points])
            let cut = Int(random.next() % UInt64(points.count + 1))
            var first = Bounds.Extent()
            first.add(Array(points[..<cut]))
            var second = Bounds.Extent()
            second.add(Array(points[cut...]))
            first.add(second)
            #expect(first.bounds == whole, "cut at \(cut) of \(points.map(\.longitude))")
        }
    }

    @Test("an activity's bounds, segment by segment and on one core or two, are those of all its points")
    func activityBounds() {
        var random = SplitMix64(seed: 77)
        for _ in 0..<100 {
            let segments = (0..<1 + Int(random.next() % 4)).map { _ in
                Self.points(count: Int(random.next() % 6), random: &random)
            }
            let want = Bounds(enclosing: segments)
            for usesTwoCores in [false, true] {
                let stats = ActivityStats(
                    segments: segments, timerPauses: [], options: StatsOptions(), usesTwoCores: usesTwoCores)
                #expect(stats.bounds == want, "\(segments.map { $0.map(\.longitude) })")
            }
        }
    }
}
