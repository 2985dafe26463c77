import Testing

@testable import RunnectKit

@Suite("Analysis: the windowed maximum speed's median of five")
struct WindowedMaxSpeedTests {
    @Test("the six-comparison median equals sorting's, for every 5-tuple of 0…3 and 100,000 random ones")
    func medianOfFive() {
        var values: [[Double]] = []
        for code in 0..<1024 {
            values.append((0..<5).map { Double((code >> (2 * $0)) & 3) })
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100_000 {
            values.append((0..<5).map { _ in Double.random(in: -50...50, using: &generator) })
        }
        let wrong = values.filter { v in
            WindowedMaxSpeed.median(v[0], v[1], v[2], v[3], v[4]) != v.sorted()[2]
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(3))")
    }

    @Test("a spike of two fast legs is left out; a real surge of a minute is kept")
    func spikesAndSurges() throws {
        let seconds = [Double](repeating: 1, count: 300)
        var meters = [Double](repeating: 3, count: 300)
        meters[100] = 60
        meters[101] = 60
        #expect(try #require(WindowedMaxSpeed.evaluate(seconds: seconds, meters: meters).windowed) == 3)
        for leg in 200..<260 { meters[leg] = 5 }
        #expect(try #require(WindowedMaxSpeed.evaluate(seconds: seconds, meters: meters).windowed) == 5)
    }
}
