/// Where a run passes a course's start and finish, and how much of the course it covers in
/// between, in order: the geometry of a match, before any time is read.
struct CourseAlignment {
    /// The run's place nearest the course's start on the pass that was timed, and the finish's.
    var start: PassFinder.Candidate
    var finish: PassFinder.Candidate
    /// Covered share of the course, 0–1.
    var coverage: Double

    /// Aligns `course` with `run`: the start first, then the finish, then the points between.
    ///
    /// 1. The passes of the run near the course's start, and near its finish: none, and the course
    ///    is rejected after a few hash look-ups.
    /// 2. The course is walked in pieces of at most ``CoursePath/sampleSpacingMeters``; each piece
    ///    end gets the run positions within reach (``PassFinder``), and the best chain of run
    ///    positions that never goes back in time is extended through it (``ChainFrontier``).
    ///    With `stopsEarly`, the walk ends as soon as the best chain plus everything left falls
    ///    short of the required coverage: once a tenth of the course is out of reach, or run
    ///    backwards.
    /// 3. The chain reaching a finish pass with the most coverage wins; among equals, the
    ///    earliest finish, then the latest start before it: the first time the course was run,
    ///    without a warm-up that crossed the start. A loop's start, passed again at its finish,
    ///    is thereby taken at its first pass.
    ///
    /// - Parameter course: At least two points, each with a position.
    /// - Complexity: O(k · c) for k course pieces and c run legs near each: a 10 km course
    ///   against any run, about 500 pieces.
    static func align(
        _ course: [Coordinate], with run: IndexedRun, options: CourseMatchOptions, stopsEarly: Bool
    ) -> Result<CourseAlignment, CourseMismatch> {
        guard run.legCount > 0 else { return .failure(.runHasNoTrack) }
        guard let first = course.first, let last = course.last, course.contains(where: { $0 != first }) else {
            return .failure(.courseHasNoLength)
        }
        let matchMeters = options.matchDistanceMeters
        var finder = PassFinder(run: run, matchMeters: matchMeters)
        let starts = finder.passes(near: first)
        guard let firstStart = starts.first else { return .failure(.startNotReached(matchDistanceMeters: matchMeters)) }
        let finishes = finder.passes(near: last)
        guard let lastFinish = finishes.last else {
            return .failure(.finishNotReached(matchDistanceMeters: matchMeters))
        }
        guard lastFinish.position >= firstStart.position else { return .failure(.finishBeforeStart) }

        let path = CoursePath(coordinates: course)
        guard path.totalWeight > 0 else { return .failure(.courseHasNoLength) }
        let required = options.minimumCoverage * Double(path.totalWeight)
        var frontier = ChainFrontier()
        for (index, start) in starts.enumerated() {
            frontier.insert(.init(covered: path.startWeight, start: index), at: start.position)
        }

        var candidates: [PassFinder.Candidate] = []
        var extended: [(position: IndexedRun.Position, value: ChainFrontier.Value)] = []
        var isShort = false
        path.forEachInteriorSample { sample, remaining in
            candidates.removeAll(keepingCapacity: true)
            finder.candidates(near: sample.position, choice: .localMinima, into: &candidates)
            // Every candidate extends the chains before it; none extends another of the same
            // point. Candidates come in run order and the best chain before them only grows, so
            // one with no more value than the last one taken would add nothing: only those that
            // would are measured with a geodesic.
            extended.removeAll(keepingCapacity: true)
            var coordinate = sample.coordinate
            for candidate in candidates {
                guard var value = frontier.best(atOrBefore: candidate.position) else { continue }
                value.covered += sample.weight
                if let last = extended.last, last.value >= value { continue }
                let here = coordinate ?? LocalTangentPlane.coordinate(of: sample.position)
                coordinate = here
                guard finder.verified(candidate, from: here) != nil else { continue }
                extended.append((candidate.position, value))
            }
            for chain in extended { frontier.insert(chain.value, at: chain.position) }
            if stopsEarly, Double((frontier.best?.covered ?? 0) + remaining) < required {
                isShort = true
                return false
            }
            return true
        }

        var best: (finish: PassFinder.Candidate, value: ChainFrontier.Value)?
        for finish in finishes {
            guard var value = frontier.best(atOrBefore: finish.position) else { continue }
            value.covered += path.finishWeight
            if best.map({ value.covered > $0.value.covered }) ?? true { best = (finish, value) }
        }
        // A finish at or after the first start always extends that start's chain.
        let (finish, value) = best!
        guard !isShort, Double(value.covered) >= required else {
            // The best chain anywhere on the course says how much of it the run follows in order;
            // when that is enough, what fails is reaching the finish after it.
            let covered = max(frontier.best?.covered ?? 0, value.covered)
            if !isShort && Double(covered) >= required {
                return .failure(.finishNotReached(matchDistanceMeters: matchMeters))
            }
            return .failure(
                .insufficientCoverage(
                    coverage: Double(covered) / Double(path.totalWeight), required: options.minimumCoverage,
                    matchDistanceMeters: matchMeters))
        }
        let coverage = Double(value.covered) / Double(path.totalWeight)
        return .success(CourseAlignment(start: starts[value.start], finish: finish, coverage: coverage))
    }
}

extension PassFinder {
    /// The nearest place of each pass within the match distance of `coordinate`, verified with
    /// a geodesic, in run order.
    mutating func passes(near coordinate: Coordinate) -> [Candidate] {
        var found: [Candidate] = []
        candidates(near: LocalTangentPlane.earthCentred(coordinate), choice: .nearest, into: &found)
        return found.compactMap { verified($0, from: coordinate) }
    }
}
