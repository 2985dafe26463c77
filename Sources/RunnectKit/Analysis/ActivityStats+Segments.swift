import Foundation

extension ActivityStats {
    /// Computes the stats of a course given as segments of points.
    ///
    /// This is the core of ``Activity/stats(options:)``, which passes the activity's
    /// ``Activity/courseSegments``. Each segment's leg lengths come from one call into
    /// GeographicLib that reads the points in place; every other figure is a pass over the points.
    /// See the properties for the rule behind each figure.
    /// - Parameters:
    ///   - segments: The segments, in order; a segment may be empty.
    ///   - timerPauses: Times the device's timer was stopped, in order and not overlapping (see
    ///     ``Activity/timerPauses``): legs reaching into one are not moving.
    ///   - deviceTotals: What the device says of the whole course (see ``Activity/deviceTotals``):
    ///     a step forward in time within a segment longer than its time and a day (a year without
    ///     it) is a clock set forward, and counts as no time (see ``elapsedTimeSeconds``).
    ///   - options: Thresholds, split length, and whether to add splits and per-segment figures.
    /// - Complexity: O(n + k) for n points and k splits.
    public init(
        segments: [[TrackPoint]], timerPauses: [DateInterval] = [], deviceTotals: DeviceTotals? = nil,
        options: StatsOptions = .init()
    ) {
        self.init(
            segments: segments, timerPauses: timerPauses, deviceTotals: deviceTotals, options: options,
            usesTwoCores: nil)
    }

    /// ``init(segments:timerPauses:deviceTotals:options:)``, with the second core used or not: by
    /// default (`nil`), for a course of ``InParallel/minimumPoints`` points or more. The figures
    /// are the same either way (tested).
    init(
        segments: [[TrackPoint]], timerPauses: [DateInterval], deviceTotals: DeviceTotals? = nil,
        options: StatsOptions, usesTwoCores: Bool?
    ) {
        let splitsUseTwoCores = usesTwoCores ?? (segments.reduce(0) { $0 + $1.count } >= InParallel.minimumPoints)
        // Times that go back or jump ahead are measured on a forward-only timeline; the file's own
        // first and last times are still the start and end.
        let forward = TimeOrder(segments: segments, deviceTotals: deviceTotals).forwardTimes(segments)
        var measured = segments.indices.map { index in
            SegmentMeasurement(
                points: segments[index], forwardTimes: forward?[index], timerPauses: timerPauses,
                options: options, appliesSteepGround: false,
                usesTwoCores: usesTwoCores)
        }
        let forwardStart = measured.lazy.compactMap(\.firstTime).first
        let forwardEnd = measured.lazy.compactMap(\.lastTime).last
        // The splits' times and elevations need no timed leg: a long course's are found on the
        // other core while the steep-ground rule looks at the slow legs here and their moving time
        // is shared out. That work holds the points, times and distances, not the measurements, so
        // their timed legs stay unshared and are changed in place (sharing them would copy them).
        // The bounds were found on the other core while each segment was measured.
        let courses = options.includeSplits ? measured.map(SplitBuilder.Course.init) : []
        let splitShares =
            options.includeSplits
            ? InParallel.start(splitsUseTwoCores) {
                SplitBuilder.PointShares(
                    of: courses, splitMeters: options.splitDistanceMeters,
                    elevationHysteresisMeters: options.elevationHysteresisMeters,
                    startTime: forwardStart, endTime: forwardEnd)
            } : nil
        for index in measured.indices { measured[index].applySteepGround() }
        let movingShares =
            options.includeSplits
            ? SplitBuilder.MovingShares(of: measured, splitMeters: options.splitDistanceMeters) : nil
        let bounds = measured.reduce(into: Bounds.Extent()) { $0.add($1.extent) }.bounds
        let distance = measured.reduce(0) { $0 + $1.distanceMeters }
        let hasElevation = measured.contains { $0.hasElevation }
        let hasTimedLeg = measured.contains { !$0.timedLegs.isEmpty }
        // Average pace divides the elapsed time by the distance between the first and last timed
        // fixes: the whole distance for any recorded run, only the timed stretch for a file timed
        // in part.
        var timedDistance = 0.0
        if let first = measured.firstIndex(where: { $0.firstTimedIndex != nil }),
            let last = measured.lastIndex(where: { $0.lastTimedIndex != nil }),
            let firstPoint = measured[first].firstTimedIndex, let lastPoint = measured[last].lastTimedIndex
        {
            timedDistance =
                measured[first..<last].reduce(0) { $0 + $1.distanceMeters }
                + measured[last].cumulativeMeters[lastPoint] - measured[first].cumulativeMeters[firstPoint]
        }

        var elapsed: Double?
        if let forwardStart, let forwardEnd { elapsed = forwardEnd.timeIntervalSince(forwardStart) }
        var moving: Double?
        var movingDistance = 0.0
        if hasTimedLeg {
            moving = measured.reduce(0) { $0 + $1.movingSeconds }
            movingDistance = measured.reduce(0) { $0 + $1.movingMeters }
        }

        let heartRate = measured.reduce(into: SegmentMeasurement.Tally()) { $0.add($1.heartRate) }
        let cadence = measured.reduce(into: SegmentMeasurement.Tally()) { $0.add($1.cadence) }

        self.init(
            points: measured.reduce(0) { $0 + $1.points.count },
            segmentCount: measured.count,
            distanceMeters: distance,
            distance3DMeters: hasElevation ? measured.reduce(0) { $0 + $1.distance3DMeters } : nil,
            elapsedTimeSeconds: elapsed,
            movingTimeSeconds: moving,
            averagePaceSecondsPerKilometer: Pace.secondsPerKilometer(seconds: elapsed, meters: timedDistance),
            movingPaceSecondsPerKilometer: Pace.secondsPerKilometer(seconds: moving, meters: movingDistance),
            maxSpeedMetersPerSecond: Self.maxSpeed(of: measured),
            elevationGainMeters: hasElevation ? measured.reduce(0) { $0 + $1.elevationGainMeters } : nil,
            elevationLossMeters: hasElevation ? measured.reduce(0) { $0 + $1.elevationLossMeters } : nil,
            minElevationMeters: measured.compactMap(\.minElevationMeters).min(),
            maxElevationMeters: measured.compactMap(\.maxElevationMeters).max(),
            bounds: bounds,
            startTime: measured.lazy.compactMap(\.firstRecordedTime).first,
            endTime: measured.lazy.compactMap(\.lastRecordedTime).last,
            averageHeartRateBPM: heartRate.mean,
            maxHeartRateBPM: heartRate.max,
            averageCadence: cadence.mean,
            maxCadence: cadence.max,
            splits: movingShares.flatMap { splitShares?.wait().splits(with: $0) },
            perSegment: options.includeSegments ? measured.map(SegmentStats.init) : nil)
    }

    /// The fastest complete window of any segment, else the fastest whole segment.
    private static func maxSpeed(of segments: [SegmentMeasurement]) -> Double? {
        segments.compactMap(\.maxSpeed.windowed).max()
            ?? segments.compactMap(\.maxSpeed.wholeSegment).max()
    }
}
