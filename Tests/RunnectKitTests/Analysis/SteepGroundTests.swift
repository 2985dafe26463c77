import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

private typealias Run = AnalysisTrackBuilder

@Suite("Analysis: moving on steep ground")
struct SteepGroundTests {
    /// A point a second for `seconds` s at `speed` m/s along the track, climbing (or descending)
    /// at `metersPerHour`, from `startSeconds` on.
    static func hike(
        seconds: Int, speed: Double, metersPerHour: Double, from startMeters: Double = 0,
        startSeconds: Double = 0, startElevation: Double = 1000
    ) -> [TrackPoint] {
        (0...seconds).map { second in
            Run.point(
                at: startMeters + speed * Double(second), seconds: startSeconds + Double(second),
                elevation: startElevation + metersPerHour * Double(second) / 3600)
        }
    }

    @Test("a climber at 400 m/h and 0.3 m/s along the track is moving; the speed rule alone says not")
    func climberMoves() throws {
        // 400.4 m/h: just over the threshold, which counts from 400 m/h on (an exact 400 would
        // come out a rounding error either side of it).
        let points = Self.hike(seconds: 600, speed: 0.3, metersPerHour: 400.4)
        let stats = ActivityStats(segments: [points])
        #expect(stats.movingTimeSeconds == 600)
        // The climber's own distance and time: 180 m in 600 s.
        #expect(abs(try #require(stats.movingPaceSecondsPerKilometer) - 600 / 0.18) < 1e-6)

        let off = ActivityStats(segments: [points], options: StatsOptions(movingVerticalSpeedThresholdMetersPerHour: 0))
        #expect(off.movingTimeSeconds == 0)
        // Descending as steeply counts the same.
        let descent = ActivityStats(segments: [Self.hike(seconds: 600, speed: 0.3, metersPerHour: -400.4)])
        #expect(descent.movingTimeSeconds == 600)
    }

    @Test("a climb at 380 m/h is under the 400 m/h threshold: not moving at 0.3 m/s")
    func gentleClimbDoesNot() {
        let stats = ActivityStats(segments: [Self.hike(seconds: 600, speed: 0.3, metersPerHour: 380)])
        #expect(stats.movingTimeSeconds == 0)
    }

    @Test("a runner standing still while GPS altitude drifts 8 m a minute is not moving")
    func standingWithDriftingAltitude() {
        // The Forerunner 110's altitude climbs 8 m in a minute while its runner waits; the fix
        // wobbles 5 cm either side, 0.1 m/s along the track.
        let points = (0...300).map { second in
            Run.point(
                at: 0, seconds: Double(second), elevation: 300 + 8 * Double(second) / 60,
                sideMeters: second % 2 == 0 ? 0.05 : -0.05)
        }
        #expect(ActivityStats(segments: [points]).movingTimeSeconds == 0)
        // It is the 0.2 m/s along the track that holds it: without it the drift would move.
        let unguarded = ActivityStats(
            segments: [points], options: StatsOptions(movingVerticalMinimumHorizontalSpeedMetersPerSecond: 0))
        #expect(unguarded.movingTimeSeconds == 300)
    }

    @Test("a lift ride with the timer stopped does not make the slow legs on either side of it move")
    func windowStopsAtPauses() throws {
        // Walking slowly on the flat at 1000 m, the timer stopped for a 300 m lift ride with no
        // fix (50 m on the map in 5 min), then walking slowly on the flat at 1300 m.
        let below = Self.hike(seconds: 100, speed: 0.5, metersPerHour: 0)
        let above = Self.hike(
            seconds: 100, speed: 0.5, metersPerHour: 0, from: 100, startSeconds: 400, startElevation: 1300)
        let start = Run.startTime
        let lift = DateInterval(start: start.addingTimeInterval(100), end: start.addingTimeInterval(400))
        let stats = ActivityStats(segments: [below + above], timerPauses: [lift])
        #expect(stats.movingTimeSeconds == 0)
        // Without the pause the window reaches over the ride: the legs by it climb 300 m in 5 min.
        let unpaused = ActivityStats(segments: [below + above])
        #expect(try #require(unpaused.movingTimeSeconds) > 0)
    }

    @Test("a window shorter than half of its length never applies: a 20 s climb moves no leg")
    func shortSegment() {
        let points = Self.hike(seconds: 20, speed: 0.3, metersPerHour: 1000)
        #expect(ActivityStats(segments: [points]).movingTimeSeconds == 0)
        let shortWindow = ActivityStats(segments: [points], options: StatsOptions(movingVerticalWindowSeconds: 20))
        #expect(shortWindow.movingTimeSeconds == 20)
    }

    @Test("the added legs are in the splits' moving time too")
    func splitsAgree() throws {
        let points = Self.hike(seconds: 600, speed: 0.3, metersPerHour: 800)
        let stats = ActivityStats(
            segments: [points], options: StatsOptions(splitDistanceMeters: 50, includeSplits: true))
        let splits = try #require(stats.splits)
        #expect(abs(splits.compactMap(\.movingTimeSeconds).reduce(0, +) - 600) < 1e-9)
    }

    @Test("interpolation: linear between samples, flat beyond, the last of samples sharing a time")
    func piecewiseLinear() {
        var line = PiecewiseLinear(capacity: 4)
        line.append(0, 10)
        line.append(10, 20)
        line.append(10, 40)
        line.append(20, 0)
        #expect(line.value(at: -5) == 10)
        #expect(line.value(at: 5) == 15)
        #expect(line.value(at: 10) == 40)
        #expect(line.value(at: 15) == 20)
        #expect(line.value(at: 25) == 0)
    }

    @Test("a lookup from a hint, forward by any distance or back, finds what bisection finds")
    func piecewiseLinearHints() {
        // Samples at uneven times, some shared; lookups that step on by a little, jump far ahead
        // (the galloping search) and go back (bisection before the hint).
        var random = SplitMix64(seed: 0x5EED)
        var line = PiecewiseLinear(capacity: 2_000)
        var time = 0.0
        for _ in 0..<2_000 {
            time += Double(random.next() % 4)  // 0 s: a time shared with the sample before
            line.append(time, Double(random.next() % 1_000) / 10)
        }
        var hint = 1
        var lookups = 0
        while lookups < 20_000 {
            let target: Double
            switch random.next() % 10 {
            case 0: target = Double(random.next() % UInt64(time + 10)) - 5  // anywhere, often back
            case 1: target = line.times[min(hint, line.times.count - 1)] + Double(random.next() % 2_000)  // far on
            default: target = line.times[min(hint, line.times.count - 1)] + Double(random.next() % 300) / 100
            }
            #expect(line.value(at: target, hint: &hint) == line.value(at: target), "at \(target)")
            lookups += 1
        }
    }
}
