/// The courses a run may have followed, as the store finds them before reading any path.
package struct MatchCandidates: Sendable, Equatable {
    /// A course whose ends the run reaches, and the most of it a match can cover (see
    /// RunnectKit's `CourseMatcher.pathMeters(of:)`).
    package struct Candidate: Sendable, Equatable {
        package var id: Int64
        package var pathMeters: Double
    }

    /// Courses starting in the run's corridor and finishing in its box (the R*Tree's answer,
    /// before the ends are checked against the run and the user's rights).
    package var nearRun = 0
    /// Of those, the ones the user can see whose start and then finish the run passes near,
    /// longest first (then by id): the order their paths are read and aligned in.
    package var reached: [Candidate] = []

    package init() {}
}
