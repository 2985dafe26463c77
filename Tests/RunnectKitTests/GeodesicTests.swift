import Testing
@testable import RunnectKit

@Test func zeroLengthLegIsZero() {
    let p = Coordinate(latitude: 37.5, longitude: 127)
    #expect(Geodesic.distance(from: p, to: p) == 0)
}
