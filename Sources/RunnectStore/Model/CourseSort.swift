/// The orders courses are listed and searched in. Every order ends with the course id, so that
/// pages never overlap or skip a course when values tie.
public enum CourseSort: String, CaseIterable, Sendable, Codable {
    /// Newest first: `created_at` descending, then id descending.
    case date
    /// Most scrapped first: `scrap_count` descending, then newest first.
    case scrap
    /// Shortest first, as the service sorts by distance: `distance_m` ascending, then id ascending.
    case distance
    /// Best match first; only meaningful for ``CourseStore/search(keywords:scope:sort:page:)``.
    /// Lists treat it as ``date``.
    case relevance
}
