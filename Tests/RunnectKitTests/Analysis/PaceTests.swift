import Foundation
import Testing

@testable import RunnectKit

private typealias Run = AnalysisTrackBuilder

/// No pace over less than 10 m (issue 34, item 8): a run of a nanometre read 10¹³ s/km.
@Suite("Analysis: no pace under the minimum distance")
struct PaceTests {
    static func stats(_ points: [TrackPoint], splitMeters: Double = 1_000) -> ActivityStats {
        var options = StatsOptions()
        options.includeSplits = true
        options.splitDistanceMeters = splitMeters
        return ActivityStats(segments: [points], options: options)
    }

    @Test("A nanometre in 10 minutes: no average pace, where it read 6·10¹⁴ s/km", arguments: [1e-9, 1e-3, 9.99])
    func standStill(meters: Double) {
        let points = [Run.point(at: 0, seconds: 0), Run.point(at: meters, seconds: 600)]
        let stats = Self.stats(points)
        #expect(stats.distanceMeters > 0 && stats.distanceMeters < 10)
        #expect(stats.elapsedTimeSeconds == 600)
        #expect(stats.averagePaceSecondsPerKilometer == nil)
        #expect(stats.splits?.map(\.paceSecondsPerKilometer) == [nil])
    }

    @Test("5 m in 1 s is moving, but 5 m gives no moving pace either")
    func shortMove() {
        let stats = Self.stats(Run.steadyRun(to: 5, stepMeters: 1, speed: 5))
        #expect(abs(stats.movingTimeSeconds! - 1) < 1e-9)
        #expect(stats.movingPaceSecondsPerKilometer == nil)
        #expect(stats.averagePaceSecondsPerKilometer == nil)
    }

    @Test("A last split of 4 m has no pace; the whole splits and the run keep theirs")
    func shortLastSplit() throws {
        let stats = Self.stats(Run.steadyRun(to: 1_004, stepMeters: 4, speed: 2.5))
        let splits = try #require(stats.splits)
        #expect(splits.count == 2)
        #expect(abs(splits[0].paceSecondsPerKilometer! - 400) < 1e-6)
        #expect(abs(splits[1].distanceMeters - 4) < 1e-6)
        #expect(splits[1].paceSecondsPerKilometer == nil)
        #expect(abs(stats.averagePaceSecondsPerKilometer! - 400) < 1e-6)
    }

    @Test("Over 10 m, time over distance")
    func overTheMinimum() {
        let stats = Self.stats([Run.point(at: 0, seconds: 0), Run.point(at: 20, seconds: 8)])
        #expect(abs(stats.averagePaceSecondsPerKilometer! - 400) < 1e-6)
        #expect(abs(stats.movingPaceSecondsPerKilometer! - 400) < 1e-6)
    }
}
