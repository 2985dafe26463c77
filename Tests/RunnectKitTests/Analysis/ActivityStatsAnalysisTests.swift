import Foundation
import Testing

@testable import RunnectKit

private typealias Run = AnalysisTrackBuilder

@Suite("Analysis: ActivityStats")
struct ActivityStatsAnalysisTests {
    // MARK: Distance, pace and splits

    @Test(
        "fixes without a position, one or repeated, are passed over: the leg joins their neighbours",
        arguments: [
            Coordinate(latitude: 91, longitude: 127.12), Coordinate(latitude: .nan, longitude: 127.12),
            Coordinate(latitude: 37.52, longitude: .infinity),
        ])
    func fixesWithoutPosition(bad: Coordinate) {
        let points = Run.steadyRun(to: 1000, stepMeters: 10, speed: 2.5)
        let clean = ActivityStats(segments: [points])
        for badIndices in [[50], [50, 51], [0, 1], [99, 100]] {
            var broken = points
            for index in badIndices {
                broken[index].latitude = bad.latitude
                broken[index].longitude = bad.longitude
            }
            let kept = points.indices.filter { !badIndices.contains($0) }.map { points[$0] }
            for usesTwoCores in [false, true] {
                let stats = ActivityStats(
                    segments: [broken], timerPauses: [], options: StatsOptions(), usesTwoCores: usesTwoCores)
                let want = ActivityStats(segments: [kept]).distanceMeters
                #expect(stats.distanceMeters == want, "\(badIndices), two cores: \(usesTwoCores)")
                if badIndices.contains(0) || badIndices.contains(100) {
                    #expect(stats.distanceMeters < clean.distanceMeters - 19)  // the end leg is gone
                }
            }
        }
    }

    @Test("2.5 km at 2.5 m/s: distance, pace, and splits with interpolated boundary crossings")
    func steadyRunSplits() throws {
        // Points 7 m apart: the 1000 m and 2000 m boundaries fall 6/7 and 5/7 into a leg, so a
        // split ended at the nearest point would be 0.4 s or 0.8 s off. 1 % grade throughout.
        let points = Run.steadyRun(to: 2500, stepMeters: 7, speed: 2.5, elevation: { 100 + $0 / 100 })
        let stats = ActivityStats(segments: [points], options: StatsOptions(includeSplits: true))

        #expect(abs(stats.distanceMeters - 2500) < 1e-6)
        let length3D: Double = 2500 * (1.0001 as Double).squareRoot()  // 1 % grade
        #expect(abs(try #require(stats.distance3DMeters) - length3D) < 1e-6)
        #expect(abs(try #require(stats.elapsedTimeSeconds) - 1000) < 1e-6)
        #expect(abs(try #require(stats.movingTimeSeconds) - 1000) < 1e-6)
        #expect(abs(try #require(stats.averagePaceSecondsPerKilometer) - 400) < 1e-6)
        #expect(abs(try #require(stats.movingPaceSecondsPerKilometer) - 400) < 1e-6)
        #expect(abs(try #require(stats.maxSpeedMetersPerSecond) - 2.5) < 1e-6)

        let splits = try #require(stats.splits)
        #expect(splits.map(\.index) == [1, 2, 3])
        let expected: [(distance: Double, end: Double, seconds: Double)] =
            [(1000, 1000, 400), (1000, 2000, 400), (500, 2500, 200)]
        for (split, want) in zip(splits, expected) {
            #expect(abs(split.distanceMeters - want.distance) < 1e-6, "split \(split.index)")
            #expect(abs(split.endDistanceMeters - want.end) < 1e-6, "split \(split.index)")
            #expect(abs(try #require(split.elapsedTimeSeconds) - want.seconds) < 1e-6, "split \(split.index)")
            #expect(abs(try #require(split.movingTimeSeconds) - want.seconds) < 1e-6, "split \(split.index)")
            #expect(abs(try #require(split.paceSecondsPerKilometer) - 400) < 1e-6, "split \(split.index)")
            #expect(try #require(split.elevationLossMeters) == 0, "split \(split.index)")
        }
        // 1 m per 100 m: the full splits climb 10 m each, give or take one 7 m step (0.07 m) of
        // where the 2 m hysteresis steps fall; the last one keeps the uncounted top of the climb.
        for split in splits.prefix(2) {
            #expect(abs(try #require(split.elevationGainMeters) - 10) <= 0.071, "split \(split.index)")
        }
        // The splits share out the activity's gain: they add up to it.
        let splitGain = splits.compactMap(\.elevationGainMeters).reduce(0, +)
        #expect(abs(splitGain - (try #require(stats.elevationGainMeters))) < 1e-9)
        #expect(abs(try #require(stats.elevationGainMeters) - 25) <= StatsOptions().elevationHysteresisMeters)
    }

    @Test("Split length follows the options; a tiny last split is kept; no splits unless asked")
    func splitOptions() throws {
        let points = Run.steadyRun(to: 1000.5, stepMeters: 7, speed: 2.5)
        let stats = ActivityStats(
            segments: [points], options: StatsOptions(splitDistanceMeters: 500, includeSplits: true))
        let splits = try #require(stats.splits)
        #expect(splits.count == 3)
        #expect(abs(splits[2].distanceMeters - 0.5) < 1e-6)
        #expect(abs(try #require(splits[2].elapsedTimeSeconds) - 0.2) < 1e-6)
        #expect(ActivityStats(segments: [points]).splits == nil)
        #expect(ActivityStats(segments: [points]).perSegment == nil)
    }

    // MARK: Moving time

    @Test("A 120 s stop counts in elapsed time but not in moving time")
    func stopIsNotMoving() throws {
        var points = Run.steadyRun(to: 500, stepMeters: 2.5, speed: 2.5)  // 0…200 s
        // Standing at 500 m for 120 s; the fix wobbles 0.4 m from side to side, as fixes do.
        for second in 1...120 {
            points.append(
                Run.point(
                    at: 500, seconds: 200 + Double(second),
                    sideMeters: second % 2 == 0 ? 0.2 : -0.2))
        }
        points += Run.steadyRun(from: 500, to: 1000, stepMeters: 2.5, speed: 2.5, startSeconds: 320)
            .dropFirst()  // 320…520 s
        let stats = ActivityStats(segments: [points])

        #expect(abs(try #require(stats.elapsedTimeSeconds) - 520) < 1e-6)
        #expect(abs(try #require(stats.movingTimeSeconds) - 400) < 1e-6)
        // Moving pace over the moving legs only; the average pace includes the stop.
        let movingPace = try #require(stats.movingPaceSecondsPerKilometer)
        #expect(abs(movingPace - 400) < 0.1)
        #expect(abs(try #require(stats.averagePaceSecondsPerKilometer) - 520 / (stats.distanceMeters / 1000)) < 1e-9)
        // The wobble adds about 48 m of distance, none of it moving.
        #expect(stats.distanceMeters > 1040 && stats.distanceMeters < 1060)
    }

    @Test("Two segments: the gap between them counts in neither distance nor moving time")
    func segmentGapIsAPause() throws {
        let first = Run.steadyRun(to: 500, stepMeters: 5, speed: 2.5)  // 0…200 s
        // 10 minutes later, 1 km further on: joined, the gap would be a 1.67 m/s "moving" leg.
        let second = Run.steadyRun(from: 1500, to: 2000, stepMeters: 5, speed: 2.5, startSeconds: 800)
        let stats = ActivityStats(
            segments: [first, [], second],
            options: StatsOptions(
                splitDistanceMeters: 400, includeSplits: true, includeSegments: true))

        #expect(stats.segmentCount == 3)
        #expect(stats.points == first.count + second.count)
        #expect(abs(stats.distanceMeters - 1000) < 1e-6)
        #expect(abs(try #require(stats.elapsedTimeSeconds) - 1000) < 1e-6)
        #expect(abs(try #require(stats.movingTimeSeconds) - 400) < 1e-6)

        // Split 2 (400…800 m) runs from 160 s in the first segment to 920 s in the second: the
        // pause is in its elapsed time, not in its moving time.
        let splits = try #require(stats.splits)
        #expect(splits.map(\.index) == [1, 2, 3])
        #expect(abs(try #require(splits[0].elapsedTimeSeconds) - 160) < 1e-6)
        #expect(abs(try #require(splits[1].elapsedTimeSeconds) - 760) < 1e-6)
        #expect(abs(try #require(splits[1].movingTimeSeconds) - 160) < 1e-6)
        #expect(abs(try #require(splits[2].elapsedTimeSeconds) - 80) < 1e-6)
        #expect(abs(try #require(splits[2].movingTimeSeconds) - 80) < 1e-6)
        #expect(abs(splits[2].endDistanceMeters - 1000) < 1e-6)

        let segments = try #require(stats.perSegment)
        #expect(segments.map(\.points) == [first.count, 0, second.count])
        #expect(abs(segments[0].distanceMeters - 500) < 1e-6)
        #expect(abs(try #require(segments[2].elapsedTimeSeconds) - 200) < 1e-6)
        #expect(abs(try #require(segments[2].movingTimeSeconds) - 200) < 1e-6)
        #expect(segments[2].startTime == Run.startTime.addingTimeInterval(800))
        #expect(segments[1].distanceMeters == 0)
        #expect(segments[1].elapsedTimeSeconds == nil)
        #expect(segments[1].movingTimeSeconds == nil)
        #expect(segments[1].startTime == nil)
    }

    @Test("Untimed points between timed ones add their distance to the timed leg")
    func untimedPointsInsideALeg() throws {
        // Timed every 10 s; the eight points between carry no time. 25 m per 10 s is moving.
        let points = (0...100).map { index in
            Run.point(at: Double(index) * 2.5, seconds: index % 10 == 0 ? Double(index) : nil)
        }
        let stats = ActivityStats(segments: [points])
        #expect(abs(try #require(stats.movingTimeSeconds) - 100) < 1e-9)
        #expect(abs(try #require(stats.movingPaceSecondsPerKilometer) - 400) < 1e-6)
    }

    // MARK: Maximum speed

    @Test(
        "A fix 60 m off the path at 1 Hz does not show up as a 60 m/s maximum speed",
        arguments: [1, 60, 119])
    func spikeDoesNotMakeMaxSpeed(spikeIndex: Int) throws {
        var points = Run.run(speeds: Array(repeating: 2.5, count: 120))
        let onPath = points[spikeIndex]
        let off = Run.position(at: Double(spikeIndex) * 2.5, sideMeters: 60)
        points[spikeIndex] = TrackPoint(latitude: off.latitude, longitude: off.longitude, time: onPath.time)

        #expect(Run.naiveMaxSpeed(points) > 55)
        let maxSpeed = try #require(ActivityStats(segments: [points]).maxSpeedMetersPerSecond)
        #expect(maxSpeed < 5)
        #expect(abs(maxSpeed - 2.5) < 0.01)
    }

    @Test("A sustained 30 s surge at 5 m/s is the maximum speed")
    func surgeIsMaxSpeed() throws {
        let speeds =
            Array(repeating: 2.5, count: 60) + Array(repeating: 5.0, count: 30)
            + Array(repeating: 2.5, count: 60)
        let maxSpeed = try #require(ActivityStats(segments: [Run.run(speeds: speeds)]).maxSpeedMetersPerSecond)
        #expect(abs(maxSpeed - 5) < 1e-6)
    }

    @Test("A 5 s burst is averaged over a 10 s window")
    func shortBurstIsWindowed() throws {
        let speeds =
            Array(repeating: 2.0, count: 30) + Array(repeating: 6.0, count: 5)
            + Array(repeating: 2.0, count: 30)
        let maxSpeed = try #require(ActivityStats(segments: [Run.run(speeds: speeds)]).maxSpeedMetersPerSecond)
        // Best 10 s window: five seconds at 6 and five at 2.
        #expect(abs(maxSpeed - 4) < 1e-6)
    }

    // MARK: Elevation

    @Test("±1 m sawtooth noise on a 100 m climb: hysteresis gain ≈ 100 m, naive sum far more")
    func elevationHysteresis() throws {
        // 201 points 10 m apart climbing 0.5 m each, alternately 1 m above and below the slope.
        let elevations: [Double] = (0...200).map { (index: Int) -> Double in
            Double(index) * 0.5 + (index % 2 == 0 ? -1.0 : 1.0)
        }
        let points = elevations.enumerated().map { index, elevation in
            Run.point(at: Double(index) * 10, seconds: Double(index) * 4, elevation: elevation)
        }
        let naiveGain: Double = zip(elevations, elevations.dropFirst())
            .map { (a: Double, b: Double) -> Double in max(b - a, 0) }.reduce(0, +)
        #expect(naiveGain > 200)

        let stats = ActivityStats(segments: [points])
        let hysteresis = StatsOptions().elevationHysteresisMeters
        let gain = try #require(stats.elevationGainMeters)
        #expect(abs(gain - 100) <= hysteresis)
        #expect(try #require(stats.elevationLossMeters) <= hysteresis)
        #expect(stats.minElevationMeters == -1)
        #expect(stats.maxElevationMeters == 100.5)

        // With no hysteresis, the naive sum is what you get.
        let raw = ActivityStats(segments: [points], options: StatsOptions(elevationHysteresisMeters: 0))
        #expect(abs(try #require(raw.elevationGainMeters) - naiveGain) < 1e-9)
    }

    @Test("Elevation: the default hysteresis is 2 m, points without elevation are skipped")
    func elevationSkipsMissing() throws {
        #expect(StatsOptions().elevationHysteresisMeters == 2)
        let points = [
            Run.point(at: 0, seconds: 0, elevation: 10),
            Run.point(at: 10, seconds: 4, elevation: nil),
            Run.point(at: 20, seconds: 8, elevation: 11.5),  // +1.5: below the threshold
            Run.point(at: 30, seconds: 12, elevation: 13),  // +3 from the reference
            Run.point(at: 40, seconds: 16, elevation: nil),
            Run.point(at: 50, seconds: 20, elevation: 10.5),  // −2.5
        ]
        let stats = ActivityStats(segments: [points])
        #expect(stats.elevationGainMeters == 3)
        #expect(stats.elevationLossMeters == 2.5)
        #expect(stats.minElevationMeters == 10)
        #expect(stats.maxElevationMeters == 13)
    }

    @Test("Hysteresis restarts in each segment")
    func elevationPerSegment() throws {
        // Each segment climbs 1.5 m: below the threshold, though 3 m in all.
        let first = [Run.point(at: 0, seconds: 0, elevation: 10), Run.point(at: 10, seconds: 4, elevation: 11.5)]
        let second = [Run.point(at: 20, seconds: 8, elevation: 11.5), Run.point(at: 30, seconds: 12, elevation: 13)]
        let stats = ActivityStats(segments: [first, second])
        #expect(stats.elevationGainMeters == 0)
        #expect(ActivityStats(segments: [first + second]).elevationGainMeters == 3)
    }

    // MARK: Bounds

    @Test("Bounds of a track across the antimeridian wrap: min_lon > max_lon")
    func antimeridianBounds() throws {
        let longitudes = [179.99, 179.995, 180, -179.995, -179.99]
        let points = longitudes.enumerated().map { index, longitude in
            TrackPoint(latitude: -16.8 + Double(index) * 0.001, longitude: longitude)
        }
        let stats = ActivityStats(segments: [points])
        let bounds = try #require(stats.bounds)
        #expect(abs(bounds.minLongitude - 179.99) < 1e-9)
        #expect(abs(bounds.maxLongitude - -179.99) < 1e-9)
        #expect(bounds.minLongitude > bounds.maxLongitude)
        #expect(bounds.crossesAntimeridian)
        #expect(abs(bounds.minLatitude - -16.8) < 1e-12)
        #expect(abs(bounds.maxLatitude - -16.796) < 1e-12)
        // The geodesic crosses too: about 2.1 km, not a trip round the world.
        #expect(stats.distanceMeters > 2000 && stats.distanceMeters < 2200)
    }

    @Test("Bounds of an ordinary track do not wrap")
    func ordinaryBounds() throws {
        let points = Run.steadyRun(to: 1000, stepMeters: 100, speed: 2.5)
        let bounds = try #require(ActivityStats(segments: [points]).bounds)
        #expect(bounds.minLongitude == Run.origin.longitude)
        #expect(abs(bounds.maxLongitude - points.last!.longitude) < 1e-12)
        #expect(bounds.minLongitude < bounds.maxLongitude)
        #expect(!bounds.crossesAntimeridian)
        #expect(ActivityStats(segments: [[], []]).bounds == nil)
    }

    // MARK: Missing data

    @Test("Without times: distance and bounds present; time, pace and speed nil")
    func noTimes() throws {
        let points = (0...40).map { Run.point(at: Double($0) * 25, seconds: nil) }
        let stats = ActivityStats(segments: [points], options: StatsOptions(includeSplits: true))
        #expect(abs(stats.distanceMeters - 1000) < 1e-6)
        #expect(stats.bounds != nil)
        #expect(stats.elapsedTimeSeconds == nil)
        #expect(stats.movingTimeSeconds == nil)
        #expect(stats.averagePaceSecondsPerKilometer == nil)
        #expect(stats.movingPaceSecondsPerKilometer == nil)
        #expect(stats.maxSpeedMetersPerSecond == nil)
        #expect(stats.startTime == nil && stats.endTime == nil)
        #expect(stats.distance3DMeters == nil)
        #expect(stats.elevationGainMeters == nil && stats.minElevationMeters == nil)
        #expect(stats.averageHeartRateBPM == nil && stats.averageCadence == nil)
        let split = try #require(stats.splits?.first)
        #expect(split.elapsedTimeSeconds == nil && split.movingTimeSeconds == nil)
        #expect(split.paceSecondsPerKilometer == nil && split.elevationGainMeters == nil)
    }

    @Test("Timed in part: the average pace is over the timed stretch, not the whole distance")
    func partlyTimed() throws {
        // 500 m without times, then 500 m timed at 2.5 m/s.
        let untimed = (0..<50).map { Run.point(at: Double($0) * 10, seconds: nil) }
        let timed = Run.steadyRun(from: 500, to: 1000, stepMeters: 10, speed: 2.5)
        let stats = ActivityStats(segments: [untimed + timed])
        #expect(abs(stats.distanceMeters - 1000) < 1e-6)
        #expect(abs(try #require(stats.elapsedTimeSeconds) - 200) < 1e-6)
        #expect(abs(try #require(stats.averagePaceSecondsPerKilometer) - 400) < 1e-6)
        #expect(abs(try #require(stats.movingPaceSecondsPerKilometer) - 400) < 1e-6)
    }

    @Test("One timed point: elapsed time 0, but no pace and no moving time")
    func singleTimedPoint() throws {
        let points = [Run.point(at: 0, seconds: 0), Run.point(at: 100, seconds: nil)]
        let stats = ActivityStats(segments: [points])
        #expect(stats.elapsedTimeSeconds == 0)
        #expect(stats.averagePaceSecondsPerKilometer == nil)
        #expect(stats.movingTimeSeconds == nil)
        #expect(stats.startTime == Run.startTime && stats.endTime == Run.startTime)
    }

    @Test("An empty activity has no figures but its counts")
    func emptyActivity() {
        let stats = Activity(format: .gpx11).stats()
        #expect(stats == ActivityStats(points: 0, segmentCount: 0, distanceMeters: 0))
    }

    @Test("Heart rate and cadence: sample mean and maximum over the points that have them")
    func heartRateAndCadence() throws {
        var points = Run.steadyRun(to: 40, stepMeters: 10, speed: 2.5)
        points[0].heartRateBPM = 140
        points[1].heartRateBPM = 150
        points[3].heartRateBPM = 161
        points[2].cadence = 88
        points[4].cadence = 91
        let stats = ActivityStats(segments: [points])
        #expect(abs(try #require(stats.averageHeartRateBPM) - 150.333_333_333_333_3) < 1e-9)
        #expect(stats.maxHeartRateBPM == 161)
        #expect(stats.averageCadence == 89.5)
        #expect(stats.maxCadence == 91)

        // Over segments (one empty, one without readings), the same mean and maximum over the
        // points: the segments' tallies are joined, not their means averaged.
        // (Two readings in the first, one in the next: a mean of the means would be 153.)
        let segments = [Array(points[..<2]), [], Array(points[2...])]
        let silent = Run.steadyRun(to: 20, stepMeters: 10, speed: 2.5)  // no heart rate, no cadence
        let joined = ActivityStats(segments: segments + [silent])
        #expect(abs(try #require(joined.averageHeartRateBPM) - 150.333_333_333_333_3) < 1e-9)
        #expect(joined.maxHeartRateBPM == 161)
        #expect(joined.averageCadence == 89.5)
        #expect(joined.maxCadence == 91)
    }

    @Test("Activity.stats measures the course segments")
    func activityStats() throws {
        let run = Run.steadyRun(to: 1000, stepMeters: 10, speed: 2.5)
        let activity = Activity(
            format: .gpx11,
            tracks: [Track(segments: [TrackSegment(points: run)])])
        #expect(activity.stats() == ActivityStats(segments: [run]))
        let route = Activity(format: .gpx11, routes: [Route(points: run)])
        #expect(abs(route.stats().distanceMeters - 1000) < 1e-6)
    }
}

@Suite("Analysis: repeated fixes")
struct RepeatedFixesAnalysisTests {
    @Test("A fix repeated for one second folds into the next leg; a stop of repeated fixes does not move")
    func repeatedFixes() throws {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let origin = Coordinate(latitude: 37.5, longitude: 127.0)
        func point(_ meters: Double, _ seconds: Double) -> TrackPoint {
            var p = TrackPoint(Geodesic.destination(from: origin, azimuthDegrees: 90, distanceMeters: meters)!)
            p.time = start.addingTimeInterval(seconds)
            return p
        }
        // 3 m/s with the fix at 6 m repeated at t=3: the 2 s leg from t=2 to t=4 covers 6 m.
        let run = [point(0, 0), point(3, 1), point(6, 2), point(6, 3), point(12, 4), point(15, 5)]
        #expect(ActivityStats(segments: [run]).movingTimeSeconds == 5)
        // A 60 s stop of identical fixes, then 3 m in one second: only the running counts.
        var stop = [point(0, 0), point(3, 1), point(6, 2)]
        stop += (3...62).map { point(6, Double($0)) }
        stop.append(point(9, 63))
        stop.append(point(12, 64))
        #expect(ActivityStats(segments: [stop]).movingTimeSeconds == 3)
    }
}
