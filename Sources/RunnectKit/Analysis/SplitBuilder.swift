import Foundation

/// Cuts measured segments into splits; see ``Split`` for the rules.
///
/// Two passes, which may run at once: ``PointShares`` finds the boundary times and shares out the
/// elevation changes from the points; ``MovingShares`` shares out the moving time of the timed
/// legs, once the steep-ground rule has had its look at them. ``PointShares/splits(with:)`` joins
/// them. O(n + k) for n points and k splits.
enum SplitBuilder {
    /// What the splits take from a segment's points: all but its timed legs, which the
    /// steep-ground rule may still change while the points are read.
    struct Course {
        let points: [TrackPoint]
        let times: SegmentMeasurement.Times
        let cumulativeMeters: [Double]
        let distanceMeters: Double
        let droppedElevations: [Int]

        init(_ segment: SegmentMeasurement) {
            points = segment.points
            times = segment.times
            cumulativeMeters = segment.cumulativeMeters
            distanceMeters = segment.distanceMeters
            droppedElevations = segment.droppedElevations
        }
    }

    /// The splits' times and elevations, found from the points: the first of the two passes.
    struct PointShares {
        fileprivate let layout: Layout?
        /// Times at the boundaries: 0 is the start, `count` the end.
        fileprivate var boundaryTimes: [Date?] = []
        fileprivate var elevationCovered: [Bool] = []
        fileprivate var gain: [Double] = []
        fileprivate var loss: [Double] = []

        /// Shares out the activity's elevation changes and finds the times at the boundaries.
        /// - Parameters:
        ///   - segments: The activity's segments, in order.
        ///   - splitMeters: Length of a split; anything but a positive finite length gives no
        ///     splits.
        ///   - elevationHysteresisMeters: The activity's elevation threshold (see
        ///     ``ElevationHysteresis``).
        ///   - startTime: Start of the first split (the activity's start).
        ///   - endTime: End of the last split (the activity's end).
        init(
            of segments: [Course], splitMeters: Double, elevationHysteresisMeters: Double,
            startTime: Date?, endTime: Date?
        ) {
            guard
                let layout = Layout(
                    splitMeters: splitMeters, totalMeters: segments.reduce(0) { $0 + $1.distanceMeters })
            else {
                layout = nil
                return
            }
            self.layout = layout
            let count = layout.count

            var boundaryTimes = [Date?](repeating: nil, count: count + 1)
            boundaryTimes[0] = startTime
            boundaryTimes[count] = endTime
            var elevationCovered = [Bool](repeating: false, count: count)
            var gain = [Double](repeating: 0, count: count)
            var loss = [Double](repeating: 0, count: count)
            // The shares are written through buffers: an array written from a closure is checked
            // for a unique reference at every write.
            elevationCovered.withUnsafeMutableBufferPointer { elevationCovered in
                gain.withUnsafeMutableBufferPointer { gain in
                    loss.withUnsafeMutableBufferPointer { loss in
                        var pass = PointPass(
                            layout: layout, elevationHysteresisMeters: elevationHysteresisMeters,
                            elevationCovered: elevationCovered, gain: gain, loss: loss)
                        for segment in segments { pass.take(segment, boundaryTimes: &boundaryTimes) }
                    }
                }
            }
            self.boundaryTimes = boundaryTimes
            self.elevationCovered = elevationCovered
            self.gain = gain
            self.loss = loss
        }

        /// The splits, with the moving time `moving` shared out.
        /// - Parameter moving: The moving shares of the segments these shares were found from.
        /// - Returns: One split per started split length; empty when the activity has no distance.
        func splits(with moving: MovingShares) -> [Split] {
            guard let layout else { return [] }
            let count = layout.count
            let elapsedCovered = moving.elapsedCovered
            let moving = moving.moving
            return (0..<count).map { split in
                let distance = layout.end(of: split) - layout.start(of: split)
                var elapsed: Double?
                if let start = boundaryTimes[split], let end = boundaryTimes[split + 1] {
                    elapsed = end.timeIntervalSince(start)
                }
                return Split(
                    index: split + 1,
                    distanceMeters: distance,
                    elapsedTimeSeconds: elapsed,
                    movingTimeSeconds: elapsedCovered[split] ? moving[split] : nil,
                    paceSecondsPerKilometer: Pace.secondsPerKilometer(seconds: elapsed, meters: distance),
                    elevationGainMeters: elevationCovered[split] ? gain[split] : nil,
                    elevationLossMeters: elevationCovered[split] ? loss[split] : nil,
                    endDistanceMeters: layout.end(of: split))
            }
        }
    }

    /// ``PointShares``' walk along the activity, segment after segment: the boundaries each leg
    /// crosses, and each elevation step shared out over the stretch it was climbed on.
    private struct PointPass {
        let layout: Layout
        let elevationHysteresisMeters: Double
        let elevationCovered: UnsafeMutableBufferPointer<Bool>
        let gain: UnsafeMutableBufferPointer<Double>
        let loss: UnsafeMutableBufferPointer<Double>
        /// Distance along the activity where the next segment starts.
        private var offset = 0.0
        private var nextBoundary = 1
        private var fromSplit = 0  // the split the last shared stretch started in

        init(
            layout: Layout, elevationHysteresisMeters: Double, elevationCovered: UnsafeMutableBufferPointer<Bool>,
            gain: UnsafeMutableBufferPointer<Double>, loss: UnsafeMutableBufferPointer<Double>
        ) {
            self.layout = layout
            self.elevationHysteresisMeters = elevationHysteresisMeters
            self.elevationCovered = elevationCovered
            self.gain = gain
            self.loss = loss
        }

        /// Takes the next segment: the times where it crosses a boundary go into `boundaryTimes`.
        mutating func take(_ segment: Course, boundaryTimes: inout [Date?]) {
            let points = segment.points
            let times = segment.times
            let cumulative = segment.cumulativeMeters
            let count = layout.count
            var nextBoundaryStart = layout.start(of: nextBoundary)
            // The last timed point before some index, found by looking back only at a boundary:
            // points before `upTo` were looked at already.
            var timedBefore: (upTo: Int, index: Int?) = (0, nil)
            var nextTimed = 0
            var hysteresis = ElevationHysteresis(thresholdMeters: elevationHysteresisMeters)
            var referencePosition: Double?  // where the hysteresis reference was set
            var nextDropped = 0  // into the segment's dropped elevations

            for index in points.indices {
                let here = offset + cumulative[index]
                // Boundaries crossed on the leg that ends here (they lie beyond the previous point,
                // or they would have been taken there).
                while nextBoundary < count && nextBoundaryStart <= here {
                    if index > 0 {
                        var look = index - 1
                        while look >= timedBefore.upTo && times.seconds(at: look).isNaN { look -= 1 }
                        timedBefore = (index, look >= timedBefore.upTo ? look : timedBefore.index)
                    }
                    if index > 0, let before = timedBefore.index {
                        nextTimed = max(nextTimed, index)
                        while nextTimed < points.count && times[nextTimed] == nil { nextTimed += 1 }
                        if nextTimed < points.count, let t0 = times[before], let t1 = times[nextTimed] {
                            let fraction =
                                (nextBoundaryStart - offset - cumulative[before])
                                / (cumulative[nextTimed] - cumulative[before])
                            boundaryTimes[nextBoundary] = t0 + fraction * t1.timeIntervalSince(t0)
                        }
                    }
                    nextBoundary += 1
                    nextBoundaryStart = layout.start(of: nextBoundary)
                }

                // Elevation: the activity's hysteresis runs along the segment; each step it counts
                // is shared out over the stretch it was climbed (or descended) on, in proportion to
                // distance. The splits' gains then add up to the activity's gain. Spikes and
                // readings inside a pause are left out here too.
                let isDropped =
                    nextDropped < segment.droppedElevations.count
                    && segment.droppedElevations[nextDropped] == index
                if isDropped { nextDropped += 1 }
                guard !isDropped, let elevation = points[index].elevationMeters, elevation.isFinite else { continue }
                let from = referencePosition ?? here
                let covered = elevationCovered
                layout.share(from: from, to: here, hint: &fromSplit) { split, _ in covered[split] = true }
                if let step = hysteresis.add(elevation) {
                    let (gain, loss) = (gain, loss)
                    layout.share(from: from, to: here, hint: &fromSplit) { split, fraction in
                        gain[split] += max(step * fraction, 0)
                        loss[split] += max(-step * fraction, 0)
                    }
                    referencePosition = here
                } else if referencePosition == nil {
                    referencePosition = here
                }
            }
            offset += segment.distanceMeters
        }
    }

    /// The moving time of the timed legs shared out over the splits, and which splits a timed leg
    /// covers: the second of the two passes.
    struct MovingShares {
        fileprivate var elapsedCovered: [Bool] = []
        fileprivate var moving: [Double] = []

        /// Shares out the moving time of the timed legs of `segments`, steep ground applied.
        /// - Parameters:
        ///   - segments: The activity's segments, in order.
        ///   - splitMeters: Length of a split, as for ``PointShares``.
        init(of segments: [SegmentMeasurement], splitMeters: Double) {
            guard
                let layout = Layout(
                    splitMeters: splitMeters, totalMeters: segments.reduce(0) { $0 + $1.distanceMeters })
            else { return }
            var elapsedCovered = [Bool](repeating: false, count: layout.count)
            var moving = [Double](repeating: 0, count: layout.count)
            var offset = 0.0
            var fromSplit = 0  // the split the last leg started in
            elapsedCovered.withUnsafeMutableBufferPointer { elapsedCovered in
                moving.withUnsafeMutableBufferPointer { moving in
                    for segment in segments {
                        let cumulative = segment.cumulativeMeters
                        for leg in segment.timedLegs {
                            layout.share(
                                from: offset + cumulative[leg.from], to: offset + cumulative[leg.to],
                                hint: &fromSplit
                            ) { split, fraction in
                                elapsedCovered[split] = true
                                if leg.isMoving { moving[split] += leg.seconds * fraction }
                            }
                        }
                        offset += segment.distanceMeters
                    }
                }
            }
            self.elapsedCovered = elapsedCovered
            self.moving = moving
        }
    }

    /// Where the splits start and end along the activity.
    fileprivate struct Layout {
        let splitMeters: Double
        let totalMeters: Double
        let count: Int

        /// Splits of `splitMeters` over `totalMeters`, the last one shorter; `nil` when there are
        /// none (no distance, or a split length that is not positive and finite).
        init?(splitMeters: Double, totalMeters total: Double) {
            guard splitMeters > 0, splitMeters.isFinite, total > 0, total / splitMeters < Double(Int.max / 2)
            else { return nil }
            let fullCount = (total / splitMeters).rounded(.down)
            self.splitMeters = splitMeters
            totalMeters = total
            count = Int(fullCount) + (total - fullCount * splitMeters > 0 ? 1 : 0)
        }

        func start(of split: Int) -> Double { Double(split) * splitMeters }

        func end(of split: Int) -> Double {
            split == count - 1 ? totalMeters : Double(split + 1) * splitMeters
        }

        /// The split that position `x` lies in: the last whose start is at or before it (the
        /// first for a position before the start, the last for one beyond the end).
        ///
        /// Looked for from `hint`, the answer of the lookup before, which this one updates: the
        /// positions of a pass along the activity move forward, so a lookup costs a comparison or
        /// two, not a division.
        @inline(__always)
        func split(at x: Double, hint: inout Int) -> Int {
            var split = hint
            if split < 0 || split >= count || start(of: split) > x {
                // A position behind the one before (or a first lookup far along): by division.
                split = min(max(Int((x / splitMeters).rounded(.down)), 0), count - 1)
                if split > 0 && start(of: split) > x { split -= 1 }
            }
            while split + 1 < count && start(of: split + 1) <= x { split += 1 }
            hint = split
            return split
        }

        /// Calls `body` with every split that the stretch `[from, to]` of the activity overlaps and
        /// the fraction of the stretch that lies in it. A stretch without length belongs whole to
        /// the split it sits in (to the earlier split when it sits on a boundary).
        ///
        /// `hint` is the split of the `from` before (see ``split(at:hint:)``): a pass whose
        /// stretches start further along each time keeps one for them.
        @inline(__always)
        func share(
            from: Double, to: Double, hint: inout Int, _ body: (_ split: Int, _ fraction: Double) -> Void
        ) {
            var split = self.split(at: from, hint: &hint)
            guard to > from else {
                // On a boundary, the split that ends there.
                body(split > 0 && start(of: split) == from ? split - 1 : split, 1)
                return
            }
            // Most stretches lie inside one split.
            if start(of: split) <= from && to <= end(of: split) {
                body(split, 1)
                return
            }
            while split < count && start(of: split) < to {
                let overlap = min(to, end(of: split)) - max(from, start(of: split))
                if overlap > 0 { body(split, overlap / (to - from)) }
                split += 1
            }
        }
    }
}
