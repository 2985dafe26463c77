import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectKit

/// A long course's stats are found on two cores (its legs and windowed speed beside the measuring
/// pass, its splits' elevations beside the steep-ground rule): the figures must be those of one core.
@Suite("Analysis: stats on two cores equal stats on one")
struct ActivityStatsTwoCoresTests {
    /// A run that has every case the passes handle: steady running, a slow steep hike, stops with
    /// repeated fixes, elevation spikes, fixes without time, position or elevation, a time that
    /// does not advance, heart rate and cadence, two segments and a timer pause.
    static func course(seed: UInt64, points count: Int) -> (segments: [[TrackPoint]], pauses: [DateInterval]) {
        var random = SplitMix64(seed: seed)
        var meters = 0.0
        var seconds = 0.0
        var elevation = 40.0
        var points: [TrackPoint] = []
        points.reserveCapacity(count)
        for index in 0..<count {
            let phase = (index / 600) % 4
            switch phase {
            case 0: meters += Double.random(in: 2.2...3.6, using: &random)  // running
            case 1:  // hiking up a steep slope: slow along the track, 400+ m/h up
                meters += Double.random(in: 0.2...0.6, using: &random)
                elevation += Double.random(in: 0.05...0.25, using: &random)
            case 2: if Int.random(in: 0..<4, using: &random) != 0 { meters += 0 } else { meters += 1 }  // stops
            default: meters += Double.random(in: 1.0...2.5, using: &random)
            }
            elevation += Double.random(in: -0.4...0.4, using: &random)
            seconds += Int.random(in: 0..<50, using: &random) == 0 ? 0 : 1
            var point = AnalysisTrackBuilder.point(at: meters, seconds: seconds, elevation: elevation)
            switch Int.random(in: 0..<200, using: &random) {
            case 0: point.elevationMeters = elevation + 90  // a spike
            case 1: point.time = nil
            case 2: point.elevationMeters = nil
            case 3: point.latitude = .nan
            default: break
            }
            if index % 3 != 0 { point.heartRateBPM = Double(120 + index % 40) }
            if index % 5 != 0 { point.cadence = Double(80 + index % 10) }
            points.append(point)
        }
        let cut = count * 2 / 3
        let pauseStart = AnalysisTrackBuilder.startTime.addingTimeInterval(Double(count) / 3)
        return (
            [Array(points[..<cut]), Array(points[cut...])],
            [DateInterval(start: pauseStart, duration: 120)]
        )
    }

    @Test("every figure, splits and segments included, is the same on one core and on two", arguments: [1, 2, 3])
    func sameFigures(seed: UInt64) throws {
        let (segments, pauses) = Self.course(seed: seed, points: 8_000)
        let options = StatsOptions(splitDistanceMeters: 500, includeSplits: true, includeSegments: true)
        let one = ActivityStats(segments: segments, timerPauses: pauses, options: options, usesTwoCores: false)
        let two = ActivityStats(segments: segments, timerPauses: pauses, options: options, usesTwoCores: true)
        #expect(one == two)
        // The course reaches every pass: splits, the steep-ground rule, the windowed speed, the gate.
        let splits = try #require(one.splits)
        #expect(splits.count >= 10)
        var speedOnly = options
        speedOnly.movingVerticalSpeedThresholdMetersPerHour = 0
        let withoutSteepGround = ActivityStats(
            segments: segments, timerPauses: pauses, options: speedOnly, usesTwoCores: true)
        #expect(try #require(one.movingTimeSeconds) > #require(withoutSteepGround.movingTimeSeconds) + 60)
        #expect(one.maxSpeedMetersPerSecond != nil)
        var ungated = options
        ungated.elevationSpikeVerticalSpeedMetersPerSecond = 0
        let withSpikes = ActivityStats(segments: segments, timerPauses: pauses, options: ungated, usesTwoCores: false)
        #expect(try #require(withSpikes.maxElevationMeters) > #require(one.maxElevationMeters) + 50)
    }
}
