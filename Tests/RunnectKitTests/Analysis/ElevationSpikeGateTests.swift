import Foundation
import Testing

@testable import RunnectKit

private typealias Run = AnalysisTrackBuilder

@Suite("Analysis: elevation spikes")
struct ElevationSpikeGateTests {
    /// A flat run at 3 m/s, a point a second for `seconds` s, with the elevation `elevation(t)`.
    static func run(seconds: Int, elevation: (Int) -> Double?) -> [TrackPoint] {
        (0...seconds).map { second in
            Run.point(at: 3 * Double(second), seconds: Double(second), elevation: elevation(second))
        }
    }

    static func measure(_ points: [TrackPoint], pauses: [DateInterval] = [], options: StatsOptions = .init())
        -> SegmentMeasurement
    {
        SegmentMeasurement(points: points, timerPauses: pauses, options: options)
    }

    @Test("a three-second spike of 87 m is left out of gain, loss, range, 3D distance and splits")
    func spikeLeftOut() throws {
        // The fenix 2's start: 55 m, then 142.4 m for three seconds, then 56 m again.
        let points = Self.run(seconds: 120) { (10...12).contains($0) ? 137 : 50 }
        let stats = ActivityStats(
            segments: [points], options: StatsOptions(splitDistanceMeters: 100, includeSplits: true))
        #expect(stats.elevationGainMeters == 0)
        #expect(stats.elevationLossMeters == 0)
        #expect(stats.maxElevationMeters == 50)
        #expect(stats.minElevationMeters == 50)
        #expect(abs(try #require(stats.distance3DMeters) - stats.distanceMeters) < 1e-9)
        #expect(try #require(stats.splits).allSatisfy { $0.elevationGainMeters == 0 && $0.elevationLossMeters == 0 })
        #expect(Self.measure(points).droppedElevations == [10, 11, 12])

        // Without the gate the spike counts up and down, and in the range.
        let ungated = ActivityStats(
            segments: [points], options: StatsOptions(elevationSpikeVerticalSpeedMetersPerSecond: 0))
        #expect(ungated.elevationGainMeters == 87)
        #expect(ungated.elevationLossMeters == 87)
        #expect(ungated.maxElevationMeters == 137)
        #expect(
            Self.measure(points, options: StatsOptions(elevationSpikeVerticalSpeedMetersPerSecond: 0))
                .droppedElevations.isEmpty)
    }

    @Test("a real shift of 30 m is taken after 5 s, when 5 m/s · 6 s + 1 m covers it")
    func levelShiftTakenLater() throws {
        let points = Self.run(seconds: 60) { $0 < 20 ? 100 : 130 }
        // Against the last kept reading (100 m at 19 s): 6, 11, 16, 21, 26 m allowed at 20…24 s;
        // 31 m at 25 s.
        #expect(Self.measure(points).droppedElevations == [20, 21, 22, 23, 24])
        let stats = ActivityStats(segments: [points])
        #expect(stats.elevationGainMeters == 30)
        #expect(stats.maxElevationMeters == 130)
    }

    @Test("a climb at 4 m/s and a descent at 4.5 m/s pass; the slack covers a 1 m step in no time")
    func fastButPossible() throws {
        let climb = Self.run(seconds: 60) { 100 + 4 * Double(min($0, 30)) - 4.5 * Double(max($0 - 30, 0)) }
        #expect(Self.measure(climb).droppedElevations.isEmpty)
        // Two readings stamped with the same second, 1 m apart, then 2 m apart.
        var same = Self.run(seconds: 10) { _ in 100 }
        same.insert(Run.point(at: 15, seconds: 5, elevation: 101), at: 6)
        same.insert(Run.point(at: 18, seconds: 6, elevation: 102.5), at: 8)
        #expect(Self.measure(same).droppedElevations == [8])
    }

    @Test("untimed readings are never gated: a route's sparse points climb 300 m between two")
    func untimedNotGated() throws {
        let route = [0.0, 400, 300, 900].enumerated().map { index, elevation in
            Run.point(at: 1000 * Double(index), seconds: nil, elevation: elevation)
        }
        #expect(Self.measure(route).droppedElevations.isEmpty)
        #expect(ActivityStats(segments: [route]).elevationGainMeters == 1000)
        // An untimed reading, then a timed one: no time on one side, so no rate to check.
        let mixed = [
            Run.point(at: 0, seconds: 0, elevation: 100), Run.point(at: 3, seconds: nil, elevation: 200),
            Run.point(at: 6, seconds: 2, elevation: 300),
        ]
        #expect(Self.measure(mixed).droppedElevations.isEmpty)
    }

    @Test("a segment whose times never advance (one sentinel time for every fix) is not gated")
    func frozenTimes() throws {
        let frozen = (0...20).map { Run.point(at: 10 * Double($0), seconds: 0, elevation: 1600 + 10 * Double($0)) }
        #expect(Self.measure(frozen).droppedElevations.isEmpty)
        #expect(ActivityStats(segments: [frozen]).elevationGainMeters == 200)
    }

    @Test("readings strictly inside a timer pause are left out; one stamped at the restart is kept")
    func insidePause() throws {
        // A lift ride with the timer stopped from 30 s to 90 s: up to 200 m and down to 160 m.
        let points = Self.run(seconds: 120) { second -> Double in
            switch second {
            case ..<30: return 100
            case 30..<60: return 100 + 10 * Double(second - 30) / 3
            case 60..<90: return 200 - 4 * Double(second - 60) / 3
            default: return 160
            }
        }
        let start = Run.startTime
        let pause = DateInterval(start: start.addingTimeInterval(30), end: start.addingTimeInterval(90))
        #expect(Self.measure(points, pauses: [pause]).droppedElevations == Array(31...89))
        let stats = ActivityStats(segments: [points], timerPauses: [pause])
        #expect(stats.maxElevationMeters == 160)
        // The reference is kept across the pause: the 60 m between its ends count.
        #expect(stats.elevationGainMeters == 60)
        #expect(ActivityStats(segments: [points]).maxElevationMeters == 200)
    }

    @Test("the gate on its own: the allowance grows from the last reading kept")
    func gateAlone() {
        var gate = ElevationSpikeGate(rateMetersPerSecond: 5, slackMeters: 1)
        let start = Run.startTime.timeIntervalSinceReferenceDate
        let readings: [(elevation: Double, seconds: Double)] = [
            (50, 0), (57, 1), (61, 2),  // 5 · 2 + 1 from 50 m at 0 s
            (62, 2), (63.5, 2),  // the slack alone, in no time
            (1000, .nan),  // no time: no rate to check
        ]
        let kept = readings.map { gate.accepts($0.elevation, atSeconds: start + $0.seconds) }
        #expect(kept == [true, false, true, true, false, true])
    }
}
