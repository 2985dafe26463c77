/// What `runnect db optimize` did to a store: its steps, in the order they ran.
public struct OptimizeReport: Sendable, Hashable, Codable {
    /// One maintenance step: what it worked on, what it measured before and after, how long it took.
    public struct Step: Sendable, Hashable, Codable {
        /// What the step did, for people (`"search index merged"`).
        public var name: String
        /// A size or count before the step (bytes of an index, segments of the search index), when measured.
        public var before: Int?
        /// The same figure after the step.
        public var after: Int?
        /// What ``before`` and ``after`` count (`"bytes"`, `"segments"`).
        public var unit: String?
        /// Wall time of the step.
        public var seconds: Double

        public init(name: String, before: Int? = nil, after: Int? = nil, unit: String? = nil, seconds: Double) {
            self.name = name
            self.before = before
            self.after = after
            self.unit = unit
            self.seconds = seconds
        }
    }

    /// The store (for PostgreSQL, the URL without its password).
    public var path: String
    /// `"sqlite"` or `"postgresql"`.
    public var backend: String
    /// The steps that ran.
    public var steps: [Step]

    public init(path: String, backend: String, steps: [Step]) {
        self.path = path
        self.backend = backend
        self.steps = steps
    }
}
