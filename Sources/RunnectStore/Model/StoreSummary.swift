/// What a store holds, for `runnect db`.
public struct StoreSummary: Sendable, Hashable, Codable {
    /// The database file.
    public var path: String
    /// The file's schema version (migrations applied).
    public var schemaVersion: Int
    /// The newest schema version this build knows.
    public var supportedSchemaVersion: Int
    /// Courses of every user.
    public var courses: Int
    /// Shared (uploaded) courses.
    public var sharedCourses: Int
    /// Users who own a course.
    public var owners: Int
    /// Scraps of every user.
    public var scraps: Int

    enum CodingKeys: String, CodingKey {
        case path, courses, owners, scraps
        case schemaVersion = "schema_version", supportedSchemaVersion = "supported_schema_version"
        case sharedCourses = "shared_courses"
    }
}
