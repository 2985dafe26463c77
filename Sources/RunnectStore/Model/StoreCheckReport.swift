/// What `runnect db check` found in a store: each check that ran, and what it found wrong.
///
/// A report is clean (``isClean``) when no check found a problem; a check that could not run
/// here (PostgreSQL's `amcheck` not installed, say) is ``Check/skipped`` and is no problem.
public struct StoreCheckReport: Sendable, Hashable, Codable {
    /// One check: what it looked at and the problems it found, each naming a row or a file.
    public struct Check: Sendable, Hashable, Codable {
        /// What was checked, for people and scripts (`"search index"`, `"images"`).
        public var name: String
        /// How many rows, entries or files were looked at, when the check counts them.
        public var examined: Int?
        /// Why the check did not run, when it did not.
        public var skipped: String?
        /// The first ``namedProblems`` problems found, one line each for people.
        public var problems: [String]
        /// Every problem found, named or not.
        public var problemCount: Int

        /// How many problems a check names; the rest are counted.
        public static let namedProblems = 20

        /// A check that found nothing yet.
        public init(name: String, examined: Int? = nil, skipped: String? = nil) {
            self.name = name
            self.examined = examined
            self.skipped = skipped
            self.problems = []
            self.problemCount = 0
        }

        /// Records a problem: named while fewer than ``namedProblems`` are, counted always.
        public mutating func add(_ problem: String) {
            if problems.count < Self.namedProblems { problems.append(problem) }
            problemCount += 1
        }

        /// Whether the check found nothing wrong (or did not run).
        public var passed: Bool { problemCount == 0 }

        enum CodingKeys: String, CodingKey {
            case name, examined, skipped, problems
            case problemCount = "problem_count"
        }
    }

    /// The store (for PostgreSQL, the URL without its password).
    public var path: String
    /// `"sqlite"` or `"postgresql"`.
    public var backend: String
    /// The store's schema version.
    public var schemaVersion: Int
    /// The checks, in the order they ran.
    public var checks: [Check]

    public init(path: String, backend: String, schemaVersion: Int, checks: [Check]) {
        self.path = path
        self.backend = backend
        self.schemaVersion = schemaVersion
        self.checks = checks
    }

    /// Whether every check passed.
    public var isClean: Bool { checks.allSatisfy(\.passed) }

    /// Every problem named, each after its check's name (`"images: course #3's image … is missing"`),
    /// and a line for each check's problems left unnamed.
    public var problemLines: [String] {
        checks.flatMap { check in
            check.problems.map { "\(check.name): \($0)" }
                + (check.problemCount > check.problems.count
                    ? ["\(check.name): \(check.problemCount - check.problems.count) more problem(s) not named"] : [])
        }
    }

    enum CodingKeys: String, CodingKey {
        case path, backend, checks, ok
        case schemaVersion = "schema_version"
    }

    /// Decodes a report written by ``encode(to:)`` (`ok` is derived, and read past).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(String.self, forKey: .path)
        backend = try container.decode(String.self, forKey: .backend)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        checks = try container.decode([Check].self, forKey: .checks)
    }

    /// The report with `ok` (``isClean``) beside its figures, for scripts.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(backend, forKey: .backend)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(isClean, forKey: .ok)
        try container.encode(checks, forKey: .checks)
    }
}
