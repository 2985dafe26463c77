import Foundation
import Testing

@testable import RunnectKit

private typealias Run = AnalysisTrackBuilder

/// A clock that jumps forward by more than any pause can last (issue 34, item 12): the leg across
/// counts as no time and a warning names the point, while real pauses and multi-day files keep
/// their time.
@Suite("Analysis: a clock that jumps forward")
struct TimeOrderForwardStepTests {
    static let day = 86_400.0
    /// 2085-12-21T16:46:58Z: the last time of `edge/strava_android_app_bad_local_msg.fit`.
    static let in2085 = Date(timeIntervalSince1970: 3_659_791_618)

    @Test("The last fix stamped in 2085: the run's own 396 s, every figure sane, a warning naming the point")
    func lastFixDecadesAhead() throws {
        var points = TimeOrderTests.steady()
        points[points.count - 1].time = Self.in2085
        let stats = TimeOrderTests.stats([points])
        TimeOrderTests.expectSane(stats)
        // 99 legs of 4 s before the jump; the leg across it counts as no time.
        #expect(stats.elapsedTimeSeconds == 396)
        #expect(abs(stats.movingTimeSeconds! - 396) < 1e-9)
        #expect(abs(stats.averagePaceSecondsPerKilometer! - 396) < 1e-6)
        #expect(stats.splits!.reduce(0) { $0 + $1.elapsedTimeSeconds! } == 396)
        #expect(stats.perSegment![0].elapsedTimeSeconds == 396)
        // The file's own first and last times, as for a step back.
        #expect(stats.startTime == Run.startTime)
        #expect(stats.endTime == Self.in2085)
        #expect(
            TimeOrder(segments: [points]).warnings == [
                "segment 1, point 101: the time jumps ahead 22538 day(s) 10:40:22, from 2024-04-07T06:06:36Z "
                    + "(segment 1, point 100) to 2085-12-21T16:46:58Z, more than any pause can last (a year); "
                    + "that leg counts as no time"
            ])
    }

    @Test("A clock set right at the start (the first fixes at FIT's epoch, 1989): the time from the fix after it")
    func firstFixesDecadesBehind() {
        var points = TimeOrderTests.steady()
        let epoch = Date(timeIntervalSince1970: 631_065_600)  // 1989-12-31T00:00:00Z
        for index in 0..<3 { points[index].time = epoch.addingTimeInterval(Double(index) * 4) }
        let stats = TimeOrderTests.stats([points])
        TimeOrderTests.expectSane(stats)
        #expect(stats.elapsedTimeSeconds == 396)
        #expect(abs(stats.movingTimeSeconds! - 396) < 1e-9)
        let warnings = TimeOrder(segments: [points]).warnings
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("segment 1, point 4: the time jumps ahead 12516 day(s) 6:00:04") == true)
    }

    @Test("The run found on a course keeps its own time: the matcher's timeline leaves the jump out too")
    func courseTime() throws {
        var points = TimeOrderTests.steady()
        points[points.count - 1].time = Self.in2085
        let matcher = CourseMatcher(segments: [points])
        let match = try #require(matcher.match(course: points.map(\.coordinate)))
        #expect(abs(match.courseTimeSeconds - 396) < 1e-6)
    }

    @Test(
        "Real forward steps within a segment keep their time: a 5-hour pause, an overnight stop, 300 days",
        arguments: [5 * 3_600.0, 86_400 / 2.0, 300 * 86_400.0])
    func pausesKeepTheirTime(pause: Double) {
        var points = TimeOrderTests.steady()
        for index in 50..<points.count { points[index].time = points[index].time!.addingTimeInterval(pause) }
        let stats = TimeOrderTests.stats([points])
        #expect(stats.elapsedTimeSeconds == 400 + pause)
        #expect(TimeOrder(segments: [points]).warnings.isEmpty)
    }

    @Test("Segments years apart (one file of several recordings) keep their time: a new segment is a new recording")
    func segmentsYearsApart() {
        let first = TimeOrderTests.steady()
        var second = TimeOrderTests.steady()
        for index in second.indices { second[index].time = second[index].time!.addingTimeInterval(3 * 365 * Self.day) }
        let stats = TimeOrderTests.stats([first, second])
        #expect(stats.elapsedTimeSeconds == 400 + 3 * 365 * Self.day)
        #expect(TimeOrder(segments: [first, second]).warnings.isEmpty)
    }

    /// The steady run with a step of `seconds` after point 50, measured with `device` totals.
    static func stepped(by seconds: Double, device: DeviceTotals?) -> (stats: ActivityStats, warnings: [String]) {
        var points = TimeOrderTests.steady()
        for index in 50..<points.count { points[index].time = points[index].time!.addingTimeInterval(seconds) }
        let stats = ActivityStats(segments: [points], deviceTotals: device)
        return (stats, TimeOrder(segments: [points], deviceTotals: device).warnings)
    }

    @Test("With the device's own time: a step longer than it and a day is a clock step, named with that bound")
    func deviceBound() throws {
        // A TCX lap's timer time alone (400 s), and a step of two days.
        let timer = DeviceTotals(timerTimeSeconds: 400)
        let jumped = Self.stepped(by: 2 * Self.day, device: timer)
        #expect(jumped.stats.elapsedTimeSeconds == 396)
        #expect(jumped.warnings.count == 1)
        #expect(
            jumped.warnings.first?.hasSuffix(
                "more than any pause can last (the device's own 0:06:40 and a day); that leg counts as no time")
                == true,
            "\(jumped.warnings)")
        // The same step without the device's time is a pause of two days.
        #expect(Self.stepped(by: 2 * Self.day, device: nil).stats.elapsedTimeSeconds == 400 + 2 * Self.day)
    }

    @Test(
        "With the device's own time, real pauses keep their time: overnight with the timer stopped, three days the watch's elapsed time counts",
        arguments: [
            (20 * 3_600.0, DeviceTotals(timerTimeSeconds: 400)),
            (3 * 86_400.0, DeviceTotals(elapsedTimeSeconds: 400 + 3 * 86_400, timerTimeSeconds: 400)),
        ])
    func devicePauses(pause: Double, device: DeviceTotals) {
        let stepped = Self.stepped(by: pause, device: device)
        #expect(stepped.stats.elapsedTimeSeconds == 400 + pause)
        #expect(stepped.warnings.isEmpty)
    }

    @Test("The bound: the device's time and a day, never more than 366 days; 366 days without a device time")
    func limits() {
        #expect(TimeOrder.forwardStepLimitSeconds(deviceTotals: nil) == 366 * Self.day)
        #expect(TimeOrder.forwardStepLimitSeconds(deviceTotals: DeviceTotals(distanceMeters: 5_000)) == 366 * Self.day)
        #expect(
            TimeOrder.forwardStepLimitSeconds(deviceTotals: DeviceTotals(timerTimeSeconds: 3_558)) == 3_558 + Self.day)
        #expect(
            TimeOrder.forwardStepLimitSeconds(
                deviceTotals: DeviceTotals(elapsedTimeSeconds: 4_000, timerTimeSeconds: 3_558))
                == 4_000 + Self.day)
        #expect(
            TimeOrder.forwardStepLimitSeconds(deviceTotals: DeviceTotals(elapsedTimeSeconds: 400 * Self.day)) == 366
                * Self.day)
        #expect(
            TimeOrder.forwardStepLimitSeconds(deviceTotals: DeviceTotals(elapsedTimeSeconds: .infinity)) == 366
                * Self.day)
    }

    @Test("A year and a day between two fixes of one segment, without a device time, is a clock step")
    func overAYear() {
        let stepped = Self.stepped(by: 367 * Self.day, device: nil)
        #expect(stepped.stats.elapsedTimeSeconds == 396)
        #expect(stepped.warnings.first?.contains("more than any pause can last (a year)") == true)
    }

    @Test("A jump ahead that comes back within five fixes stays a stray, not a clock step")
    func strayAheadStaysAStray() {
        var points = TimeOrderTests.steady()
        points[50].time = Self.in2085
        let warnings = TimeOrder(segments: [points]).warnings
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasSuffix("the time of segment 1, point 51 is left out") == true, "\(warnings)")
        #expect(TimeOrderTests.stats([points]).elapsedTimeSeconds == 400)
    }
}
