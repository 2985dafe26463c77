import Foundation

/// Why a run does not follow a course (or gives no course time); see
/// ``CourseMatcher/evaluate(course:)-([Coordinate])``.
///
/// The descriptions are one line that finishes "the run does not follow the course: …".
public enum CourseMismatch: Error, Equatable, Sendable {
    /// The course has fewer than two points with a position, or no length.
    case courseHasNoLength
    /// The run has fewer than two points with a position.
    case runHasNoTrack
    /// The run never comes within the match distance of the course's start.
    case startNotReached(matchDistanceMeters: Double)
    /// The run never comes within the match distance of the course's finish after following the
    /// course (it stops short of the finish; or, on a loop, it stops short of the finish it
    /// passed at its start).
    case finishNotReached(matchDistanceMeters: Double)
    /// The run comes near the course's finish only before it comes near its start.
    case finishBeforeStart
    /// The run follows the course the other way round: the reversed course would match.
    case wrongDirection
    /// Less of the course than required lies within the match distance of the run, in order.
    ///
    /// `coverage` is the share found, 0–1; from ``CourseMatcher/match(course:)-([Coordinate])``, which
    /// stops as soon as the requirement cannot be met, it would be a lower figure, so only
    /// ``CourseMatcher/evaluate(course:)-([Coordinate])`` reports this case.
    case insufficientCoverage(coverage: Double, required: Double, matchDistanceMeters: Double)
    /// The run has no timestamps at all.
    case runHasNoTimes
    /// The run follows the course, but has no timed point before its start passage or none
    /// after its finish passage, so there is no course time.
    case passageNotTimed(coverage: Double)
}

extension CourseMismatch: CustomStringConvertible {
    /// One line a runner can act on, e.g. `only 52% of the course lies within 30 m of the run, in
    /// order (90% needed)`.
    public var description: String {
        switch self {
        case .courseHasNoLength:
            return "the course has no length (fewer than two points with a position)"
        case .runHasNoTrack:
            return "the run has no track (fewer than two points with a position)"
        case .startNotReached(let meters):
            return "the run never comes within \(Self.meters(meters)) of the course's start"
        case .finishNotReached(let meters):
            return "the run never comes within \(Self.meters(meters)) of the course's finish after following it"
        case .finishBeforeStart:
            return "the run passes the course's finish only before its start"
        case .wrongDirection:
            return "the run follows the course the other way round"
        case .insufficientCoverage(let coverage, let required, let meters):
            return "only \(Self.percent(coverage)) of the course lies within \(Self.meters(meters)) of the run, "
                + "in order (\(Self.percent(required)) needed)"
        case .runHasNoTimes:
            return "the run has no timestamps, so it gives no course time"
        case .passageNotTimed:
            return "the run has no timestamps around the course's start or finish, so it gives no course time"
        }
    }

    /// Whole percent, rounded down so that 89.6% never reads as the 90% it falls short of.
    private static func percent(_ share: Double) -> String {
        "\(Int((share * 100).rounded(.down)))%"
    }

    private static func meters(_ meters: Double) -> String {
        String(format: "%g m", meters)
    }
}
