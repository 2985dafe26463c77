/// What a store holds, for `runnect db`.
public struct StoreSummary: Sendable, Hashable, Codable {
    /// The database file (for PostgreSQL, the URL without its password).
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

    /// A summary of these figures (a PostgreSQL store makes its own).
    public init(
        path: String, schemaVersion: Int, supportedSchemaVersion: Int, courses: Int, sharedCourses: Int, owners: Int,
        scraps: Int
    ) {
        self.path = path
        self.schemaVersion = schemaVersion
        self.supportedSchemaVersion = supportedSchemaVersion
        self.courses = courses
        self.sharedCourses = sharedCourses
        self.owners = owners
        self.scraps = scraps
    }

    enum CodingKeys: String, CodingKey {
        case path, courses, owners, scraps
        case schemaVersion = "schema_version", supportedSchemaVersion = "supported_schema_version"
        case sharedCourses = "shared_courses"
    }
}
