/// The courses a run may have followed, as the store finds them before reading any path.
package struct MatchCandidates: Sendable, Equatable {
    /// A course whose ends the run reaches, and the most of it a match can cover (see
    /// RunnectKit's `CourseMatcher.pathMeters(of:)`).
    package struct Candidate: Sendable, Equatable {
        package var id: Int64
        package var pathMeters: Double
    }

    /// Courses whose start and finish lie in the run's box (the R*Tree's answer, before the
    /// user's rights are checked).
    package var inBox = 0
    /// Of those, the ones the user can see whose start and then finish the run passes near,
    /// longest first (then by id): the order their paths are read and aligned in.
    package var reached: [Candidate] = []

    package init() {}
}
