import Foundation
import RunnectKit

extension CourseStore {
    // MARK: - Recording runs

    /// Stores a timed run as a record, inside the caller's transaction: linked to the course
    /// ``RunMatching/link`` names, else to the best-matching course the user can see, else to a
    /// new private course made from the run's own path.
    ///
    /// Everything that can refuse the run (a record of the same file, a named course it does not
    /// follow) is checked before anything is written.
    func record(_ draft: CourseDraft, run: RunDraft, in tx: any StoreTransaction) async throws -> RecordedRun {
        if let existing = try await tx.recordID(contentHash: draft.contentHash) {
            throw StoreError.duplicateRecord(existingID: existing)
        }
        var linked: (course: Course, match: CourseMatch)?
        switch run.matching.link {
        case .course(let id):
            let course = try await visibleCourse(tx, id: id)
            switch run.matcher.evaluate(course: try await storedActivity(tx, id: id)) {
            case .success(let match): linked = (course, match)
            case .failure(let reason): throw StoreError.runDoesNotFollow(courseID: id, reason: reason.description)
            }
        case .bestMatch:
            linked = try await bestMatch(for: run, in: tx)
        case .newCourse:
            linked = nil
        }
        let isNewCourse = linked == nil
        if linked == nil { linked = try await courseFromRun(draft, run: run, in: tx) }
        let (course, match) = linked!

        let id = try await tx.insertRecord(
            NewRecord(
                id: nil, owner: user, courseID: course.id, title: draft.title, sourceFormat: draft.record.sourceFormat,
                contentHash: draft.contentHash, createdAt: Date(), startTime: run.startTime,
                distanceMeters: draft.record.distanceMeters, pointCount: draft.record.pointCount,
                deviceTimerSeconds: run.deviceTimerSeconds, courseTimeSeconds: match.courseTimeSeconds,
                courseDistanceMeters: match.courseDistanceMeters, matchCoverage: match.coverage,
                statsJSON: draft.statsJSON, geometry: draft.record.geometry))
        let faster = try await tx.recordsAtLeastAsFast(
            course: course.id, seconds: match.courseTimeSeconds, excluding: id)
        return RecordedRun(
            record: try await fetchRecord(tx, id: id), course: try await fetchCourse(tx, id: course.id),
            isNewCourse: isNewCourse,
            isPersonalBest: faster == 0)
    }

    /// The course the run follows best among those the user can see (see
    /// ``CourseMatch/ranksBelow(_:_:)``), ties to the lowest id; `nil` when it follows none.
    ///
    /// Candidates are aligned longest first: once a match covers more than the next candidate's
    /// whole length, no candidate left can beat it, and their paths are not read.
    func bestMatch(for run: RunDraft, in tx: any StoreTransaction) async throws -> (course: Course, match: CourseMatch)?
    {
        var best: (id: Int64, match: CourseMatch)?
        for candidate in try await candidateCourses(for: run, in: tx).reached {
            // A millimetre of slack: the stored length and the match's are computed alike, but
            // a skipped course must be one that could not have won.
            if let best, candidate.pathMeters + 0.001 < best.match.matchedDistanceMeters { break }
            // A course whose stored path is damaged is no candidate; the run still finds the others.
            guard let path = try? await storedActivity(tx, id: candidate.id),
                let match = run.matcher.match(course: path)
            else { continue }
            if let current = best, !CourseMatch.ranksBelow(current.match, match) { continue }
            best = (candidate.id, match)
        }
        guard let best else { return nil }
        return (try await fetchCourse(tx, id: best.id), best.match)
    }

    /// The courses the user can see (their own, shared ones, their scraps) whose start and then
    /// finish the run reaches, longest first.
    ///
    /// The `course_start` index gives the courses starting near the run, in any box of
    /// its corridor (see `RunDraft.corridor`), whose finish (kept beside) lies in the run's box.
    /// At 100,000 generated courses in Seoul and a 26 km run, the boxes of the courses meeting
    /// the run's box were tens of thousands (long loops cover half the city; 34 ms to go
    /// through), the starts in the run's box 3,282 (10 ms with their ends checked), the starts
    /// in its corridor a few hundred. The run's own index then checks each one's two ends
    /// (RunnectKit's `CourseMatcher.reaches(start:thenFinish:)`, about a microsecond), leaving
    /// the few whose paths are read and aligned (195 there); only those are looked up in
    /// `course` to see whether the user may see them.
    func candidateCourses(for run: RunDraft, in tx: any StoreTransaction) async throws -> MatchCandidates {
        let box = run.searchBox
        var candidates = MatchCandidates()
        var seen = Set<Int64>()
        // Every piece of the corridor in one question (one round trip to PostgreSQL).
        for start in try await tx.courseStarts(in: run.corridor, finishingIn: box) {
            // Pieces overlap: a start near two of them is found twice.
            guard seen.insert(start.id).inserted else { continue }
            candidates.nearRun += 1
            // Whether the user can see the course: asked only of the few whose ends the run reaches.
            guard run.matcher.reaches(start: start.start, thenFinish: start.finish),
                try await tx.canSee(course: start.id)
            else { continue }
            candidates.reached.append(.init(id: start.id, pathMeters: start.pathMeters))
        }
        candidates.reached.sort { ($0.pathMeters, $1.id) > ($1.pathMeters, $0.id) }
        return candidates
    }

    /// For benchmarks: how many courses the spatial index finds for a timed run's draft, and
    /// how many of those the run reaches both ends of (whose paths a record would align).
    package func matchCandidates(for draft: CourseDraft) async throws -> MatchCandidates {
        guard let run = draft.run else { return MatchCandidates() }
        return try await read { try await self.candidateCourses(for: run, in: $0) }
    }

    /// A new private course made from the run (what `import` stores for a file that is not a
    /// run), or the user's course of the same file stored before records existed; the run
    /// matched against it.
    private func courseFromRun(
        _ draft: CourseDraft, run: RunDraft, in tx: any StoreTransaction
    ) async throws -> (course: Course, match: CourseMatch) {
        let course: Course
        do {
            course = try await tx.insertCourse(draft)
        } catch StoreError.duplicate(let existingID) {
            course = try await fetchCourse(tx, id: existingID)
        }
        // The run follows its own path; should a path too broken to align (a track of scattered
        // fixes) fail, the record takes the run's whole time and distance.
        if let match = run.matcher.match(course: try await storedActivity(tx, id: course.id)) { return (course, match) }
        let stats = draft.stats
        let elapsed = stats.elapsedTimeSeconds ?? 0
        let match = CourseMatch(
            coverage: 1, courseDistanceMeters: stats.distanceMeters, courseTimeSeconds: elapsed,
            coursePaceSecondsPerKilometer: Pace.secondsPerKilometer(seconds: elapsed, meters: stats.distanceMeters),
            startTime: run.startTime, finishTime: run.startTime.addingTimeInterval(elapsed),
            runDistanceBeforeStartMeters: 0, runDistanceOnCourseMeters: stats.distanceMeters,
            runDistanceAfterFinishMeters: 0, startOffsetMeters: 0, finishOffsetMeters: 0)
        return (course, match)
    }
}
