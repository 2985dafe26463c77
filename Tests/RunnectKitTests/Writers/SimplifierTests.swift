import Foundation
import Testing
@testable import RunnectKit

@Suite("Douglas–Peucker simplifier")
struct SimplifierTests {
    @Test("keeps the ends, drops points within the tolerance, keeps those beyond")
    func tolerance() {
        // Along the equator, 0.001° ≈ 111.2 m; a bump of 0.00005° ≈ 5.6 m north.
        let points = [(0.0, 0.0), (0.00001, 0.001), (0.00005, 0.002), (0.0, 0.003)]
            .map { TrackPoint(latitude: $0.0, longitude: $0.1) }
        #expect(Simplifier.keptIndices(of: points, toleranceMeters: 10) == [0, 3])
        #expect(Simplifier.keptIndices(of: points, toleranceMeters: 5) == [0, 2, 3])
        #expect(Simplifier.keptIndices(of: points, toleranceMeters: 0) == [0, 1, 2, 3])
    }

    @Test("a million points simplify without recursion")
    func millionPoints() {
        var points: [TrackPoint] = []
        points.reserveCapacity(1_000_000)
        for i in 0..<1_000_000 {
            let t = Double(i) * 1e-5
            points.append(TrackPoint(latitude: 37.5 + 0.01 * sin(t * 50), longitude: 127 + t * 0.01))
        }
        let kept = Simplifier.keptIndices(of: points, toleranceMeters: 1)
        #expect(kept.first == 0 && kept.last == 999_999)
        #expect(kept.count < 20_000)
    }
}
