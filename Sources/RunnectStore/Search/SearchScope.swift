/// Which courses a search looks at.
public enum SearchScope: Sendable {
    /// Shared courses only (`is_uploaded = 1`): discovery.
    case shared
    /// Every course in the store.
    case all
}
