import Foundation
import Testing

@testable import RunnectKit

private typealias Run = AnalysisTrackBuilder

/// Times that go backwards: elapsed and moving time are never negative, a stray timestamp adds
/// nothing, a clock set back loses nothing, and every step back is named in a warning.
@Suite("Analysis: times going backwards")
struct TimeOrderTests {
    static let year = 365 * 86_400.0

    /// 1 km at 2.5 m/s, a point every 10 m (4 s): 400 s.
    static func steady() -> [TrackPoint] {
        Run.steadyRun(to: 1_000, stepMeters: 10, speed: 2.5)
    }

    /// Every figure that is a time is finite and not negative, splits included.
    static func expectSane(_ stats: ActivityStats, sourceLocation: SourceLocation = #_sourceLocation) {
        let times =
            [
                stats.elapsedTimeSeconds, stats.movingTimeSeconds, stats.averagePaceSecondsPerKilometer,
                stats.movingPaceSecondsPerKilometer, stats.maxSpeedMetersPerSecond,
            ]
            + (stats.splits ?? []).flatMap {
                [$0.elapsedTimeSeconds, $0.movingTimeSeconds, $0.paceSecondsPerKilometer]
            }
        for value in times.compactMap({ $0 }) {
            #expect(value.isFinite && value >= 0, "\(value)", sourceLocation: sourceLocation)
        }
        if let moving = stats.movingTimeSeconds, let elapsed = stats.elapsedTimeSeconds {
            #expect(moving <= elapsed + 1e-9, sourceLocation: sourceLocation)
        }
    }

    static func stats(_ segments: [[TrackPoint]]) -> ActivityStats {
        var options = StatsOptions()
        options.includeSplits = true
        options.splitDistanceMeters = 250
        options.includeSegments = true
        return ActivityStats(segments: segments, options: options)
    }

    @Test("A fix stamped a year back in the middle adds no year and takes nothing away")
    func strayYearBack() throws {
        var points = Self.steady()
        points[50].time = points[50].time!.addingTimeInterval(-Self.year)
        let stats = Self.stats([points])
        Self.expectSane(stats)
        #expect(stats.elapsedTimeSeconds == 400)
        #expect(abs(stats.movingTimeSeconds! - 400) < 1e-9)
        #expect(abs(stats.maxSpeedMetersPerSecond! - 2.5) < 1e-6)
        #expect(stats.startTime == Run.startTime)
        #expect(stats.endTime == Run.startTime.addingTimeInterval(400))
        #expect(stats.splits!.prefix(4).map(\.elapsedTimeSeconds) == [100, 100, 100, 100])
        #expect(stats.splits!.reduce(0) { $0 + $1.elapsedTimeSeconds! } == 400)
        #expect(stats.perSegment![0].elapsedTimeSeconds == 400)

        let warnings = TimeOrder(segments: [points]).warnings
        #expect(
            warnings == [
                "segment 1, point 51: the time goes back 364 day(s) 23:59:56, from 2024-04-07T06:03:16Z "
                    + "(segment 1, point 50) to 2023-04-08T06:03:20Z; the time of segment 1, point 51 is left out"
            ])
    }

    @Test("A fix stamped a year ahead in the middle adds no year either")
    func strayYearAhead() {
        var points = Self.steady()
        points[50].time = points[50].time!.addingTimeInterval(Self.year)
        let stats = Self.stats([points])
        Self.expectSane(stats)
        #expect(stats.elapsedTimeSeconds == 400)
        #expect(abs(stats.movingTimeSeconds! - 400) < 1e-9)
        let warnings = TimeOrder(segments: [points]).warnings
        #expect(warnings.count == 1)
        #expect(warnings[0].hasPrefix("segment 1, point 52: the time goes back 364 day(s) 23:59:56"))
        #expect(warnings[0].hasSuffix("the time of segment 1, point 51 is left out"))
    }

    @Test("Three fixes a year back in a row are strays too")
    func strayBlock() {
        var points = Self.steady()
        for index in 20..<23 { points[index].time = points[index].time!.addingTimeInterval(-Self.year) }
        let stats = Self.stats([points])
        Self.expectSane(stats)
        #expect(stats.elapsedTimeSeconds == 400)
        #expect(abs(stats.movingTimeSeconds! - 400) < 1e-9)
        #expect(
            TimeOrder(segments: [points]).warnings.map {
                $0.hasSuffix("the times of 3 points from segment 1, point 21 are left out")
            }
                == [true])
    }

    @Test("A clock set back an hour halfway counts the time on both sides of the step")
    func clockStep() {
        var points = Self.steady()
        for index in 50..<points.count { points[index].time = points[index].time!.addingTimeInterval(-3_600) }
        let stats = Self.stats([points])
        Self.expectSane(stats)
        // 49 legs of 4 s before the step, 50 after: the leg across the step counts as no time.
        #expect(stats.elapsedTimeSeconds == 396)
        #expect(abs(stats.movingTimeSeconds! - 396) < 1e-9)
        #expect(stats.endTime == Run.startTime.addingTimeInterval(400 - 3_600))
        #expect(stats.splits!.reduce(0) { $0 + $1.elapsedTimeSeconds! } == 396)
        #expect(TimeOrder(segments: [points]).warnings.map { $0.hasSuffix("that leg counts as no time") } == [true])
    }

    @Test("Times all reversed: no negative time, no pace, no speed; a warning per step, at most 20")
    func reversed() {
        let points = Self.steady()
        let times = points.map(\.time)
        var reversed = points
        for index in reversed.indices { reversed[index].time = times[times.count - 1 - index] }
        let stats = Self.stats([reversed])
        Self.expectSane(stats)
        #expect(stats.elapsedTimeSeconds == 0)
        #expect(stats.movingTimeSeconds == 0)
        #expect(stats.averagePaceSecondsPerKilometer == nil)
        #expect(stats.movingPaceSecondsPerKilometer == nil)
        #expect(stats.maxSpeedMetersPerSecond == nil)
        #expect(stats.splits!.allSatisfy { $0.elapsedTimeSeconds == 0 && $0.paceSecondsPerKilometer == nil })
        // Start and end are the file's: the first and last timed points.
        #expect(stats.startTime == Run.startTime.addingTimeInterval(400))
        #expect(stats.endTime == Run.startTime)

        let warnings = TimeOrder(segments: [reversed]).warnings
        #expect(warnings.count == TimeOrder.maximumWarnings + 1)
        #expect(warnings.first?.hasPrefix("segment 1, point 2: the time goes back 0:00:04") == true)
        #expect(warnings.last == "and 80 more step(s) back in time")
    }

    @Test("Zero-time legs: no moving time, no pace, no speed, no infinity")
    func zeroTimeLegs() {
        var points = Self.steady()
        for index in points.indices { points[index].time = Run.startTime }
        let stats = Self.stats([points])
        Self.expectSane(stats)
        #expect(stats.elapsedTimeSeconds == 0)
        #expect(stats.movingTimeSeconds == 0)
        #expect(stats.movingPaceSecondsPerKilometer == nil)
        #expect(stats.maxSpeedMetersPerSecond == nil)
        #expect(TimeOrder(segments: [points]).warnings.isEmpty, "equal times do not go back")

        // Two fixes with one time in a steady run: that leg is no time and no speed.
        var pair = Self.steady()
        pair[10].time = pair[9].time
        let paired = Self.stats([pair])
        Self.expectSane(paired)
        #expect(paired.elapsedTimeSeconds == 400)
        #expect(abs(paired.maxSpeedMetersPerSecond! - 2.5) < 0.5)
    }

    @Test("A second segment stamped before the first ended: never negative, named by segment")
    func segmentsOutOfOrder() {
        let first = Self.steady()
        let second = Run.steadyRun(from: 1_000, to: 2_000, stepMeters: 10, speed: 2.5, startSeconds: -1_000)
        let stats = Self.stats([first, second])
        Self.expectSane(stats)
        #expect(stats.elapsedTimeSeconds == 800)
        #expect(stats.perSegment!.map(\.elapsedTimeSeconds) == [400, 400])
        let warnings = TimeOrder(segments: [first, second]).warnings
        #expect(warnings.count == 1)
        #expect(
            warnings[0].hasPrefix(
                "segment 2, point 1: the time goes back 0:23:20, from 2024-04-07T06:06:40Z (segment 1, point 101)"))
    }

    @Test("Times that never go back are left as they are, with no warning")
    func forwardUntouched() {
        let segments = [
            Self.steady(), Run.steadyRun(from: 1_000, to: 1_500, stepMeters: 10, speed: 2, startSeconds: 600),
        ]
        let order = TimeOrder(segments: segments)
        #expect(order.steps.isEmpty)
        #expect(order.warnings.isEmpty)
        #expect(order.forwardSegments(segments) == segments)
        #expect(Self.stats(segments).elapsedTimeSeconds == 850)
    }

    @Test("A leg into a timer pause is not moving, even after a stray timestamp")
    func pausesAfterStray() {
        var points = Self.steady()
        points[10].time = points[10].time!.addingTimeInterval(-Self.year)
        let pause = DateInterval(start: Run.startTime.addingTimeInterval(200), duration: 2)
        let stats = ActivityStats(segments: [points], timerPauses: [pause])
        #expect(stats.elapsedTimeSeconds == 400)
        #expect(abs(stats.movingTimeSeconds! - 396) < 1e-9)
    }
}
