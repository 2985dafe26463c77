/// The courses a run may have followed, as the store finds them before reading any path.
package struct MatchCandidates: Sendable, Equatable {
    /// Courses the user can see whose box overlaps the run's and whose ends lie in it (the
    /// R*Tree's answer).
    package var inBox = 0
    /// Of those, the ones whose start and then finish the run passes near, in id order: the
    /// paths that are read and aligned.
    package var ids: [Int64] = []

    package init() {}
}
