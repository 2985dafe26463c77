import RunnectKit

/// How an import treats a run (a GPX, TCX or FIT track with a time at every point, the times
/// advancing: RunnectKit's `Activity/isRun`): as a record of the course it followed, found among
/// the courses the user can see, or of a course named, or of a new course made from its own path.
/// Anything else (routes, tapped points, tracks untimed or timed in part) is a course only,
/// whatever this says.
public struct RunMatching: Sendable, Equatable {
    /// Which course a run's record goes to.
    public enum Link: Sendable, Equatable {
        /// The best-matching course the user can see (their own, the ones they scrapped, shared
        /// ones), else a new private course made from the run.
        case bestMatch
        /// This course, refused when the run does not follow it.
        case course(Int64)
        /// Always a new private course made from the run.
        case newCourse
    }

    /// Which course a run's record goes to.
    public var link: Link
    /// What "follows" means (match distance, coverage).
    public var options: CourseMatchOptions

    /// Records linked as `link` says, with `options`.
    public init(link: Link = .bestMatch, options: CourseMatchOptions = .init()) {
        self.link = link
        self.options = options
    }
}
