import RunnectTestSupport
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

    @Test("taken leg by leg, the result is bit for bit that of the whole arrays at once", arguments: [7, 8, 9])
    func streamingMatchesArrays(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var lengths = Array(0...40)
        lengths += [500, 5_000]
        for count in lengths {
            // Mostly 1 s legs, some long gaps and some very short ones (10 Hz), with spikes.
            let seconds = (0..<count).map { _ in
                switch Int.random(in: 0..<20, using: &random) {
                case 0: Double.random(in: 0.05...0.2, using: &random)
                case 1: Double.random(in: 5...40, using: &random)
                default: 1.0
                }
            }
            let meters = seconds.map { duration in
                Int.random(in: 0..<30, using: &random) == 0
                    ? Double.random(in: 30...90, using: &random) : duration * Double.random(in: 0...5, using: &random)
            }
            let streamed = WindowedMaxSpeed.evaluate(seconds: seconds, meters: meters)
            let reference = Self.reference(seconds: seconds, meters: meters)
            #expect(streamed.windowed == reference.windowed, "\(count) legs")
            #expect(streamed.wholeSegment == reference.wholeSegment, "\(count) legs")
        }
    }

    /// The rule written out over whole arrays (the implementation before the streaming one):
    /// prefix sums of time and despiked distance, then the shortest complete window from each start.
    static func reference(seconds: [Double], meters: [Double]) -> WindowedMaxSpeed.Result {
        let count = seconds.count
        guard count > 0 else { return .init(windowed: nil, wholeSegment: nil) }
        let speeds = (0..<count).map { meters[$0] / seconds[$0] }
        var elapsed = [Double](repeating: 0, count: count + 1)
        var covered = [Double](repeating: 0, count: count + 1)
        for leg in 0..<count {
            let median: Double
            if count >= 5 {
                let first = min(max(leg - 2, 0), count - 5)
                median = speeds[first..<first + 5].sorted()[2]
            } else {
                let window = speeds.sorted()
                median = count % 2 == 1 ? window[count / 2] : (window[count / 2 - 1] + window[count / 2]) / 2
            }
            elapsed[leg + 1] = elapsed[leg] + seconds[leg]
            covered[leg + 1] = covered[leg] + median * seconds[leg]
        }
        var fastest: Double?
        for start in 0..<count {
            var end = start + 5
            while end <= count && elapsed[end] - elapsed[start] < 10 { end += 1 }
            guard end <= count else { continue }
            let speed = (covered[end] - covered[start]) / (elapsed[end] - elapsed[start])
            fastest = max(fastest ?? speed, speed)
        }
        return .init(windowed: fastest, wholeSegment: elapsed[count] > 0 ? covered[count] / elapsed[count] : nil)
    }
}

extension WindowedMaxSpeed {
    /// The result for a whole segment's legs at once, taken one by one.
    static func evaluate(seconds: [Double], meters: [Double]) -> Result {
        var speed = WindowedMaxSpeed()
        for leg in seconds.indices { speed.add(seconds: seconds[leg], meters: meters[leg]) }
        return speed.finish()
    }
}
