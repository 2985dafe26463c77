/// What an export did, for `runnect index` (text, or `--json`).
public struct DiscoveryIndexSummary: Codable, Equatable, Sendable {
    /// The output folder.
    public var folder: String
    /// `shared` or `all`.
    public var scope: String
    /// Courses in the index.
    public var courses: Int
    /// Files written (new or changed).
    public var filesWritten: Int
    /// Files left as they were: their bytes would not have changed.
    public var filesUnchanged: Int
    /// Files of courses no longer in the index, removed.
    public var filesRemoved: Int

    enum CodingKeys: String, CodingKey {
        case folder, scope, courses
        case filesWritten = "files_written", filesUnchanged = "files_unchanged", filesRemoved = "files_removed"
    }
}
