/// Which courses ``CourseStore/list(_:sort:page:)`` lists.
public enum CourseListScope: Equatable, Sendable {
    /// The current user's own courses (the app's storage tab): all of them with `nil`, only the
    /// shared ones with `true`, only the private ones with `false`.
    case mine(uploaded: Bool?)
    /// The courses the current user scrapped (every one of them is shared: un-uploading a course
    /// clears its scraps).
    case scrapped
    /// Discovery: every user's shared courses.
    case shared
    /// One runner's shared courses (their profile, as others see it).
    case sharedBy(String)
}
