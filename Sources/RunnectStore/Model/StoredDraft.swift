/// What became of a draft stored by ``CourseStore/store(_:)``.
public enum StoredDraft: Sendable {
    /// A new course.
    case course(Course)
    /// A record of a run, on an existing course or a new one made from the run.
    case record(RecordedRun)
}

/// A run just recorded: the record, its course, and how the two came together.
public struct RecordedRun: Sendable, Equatable {
    /// The record.
    public var record: RunRecord
    /// The course it is a record of.
    public var course: Course
    /// The course was made from this run (no course the user can see matched).
    public var isNewCourse: Bool
    /// No earlier record of the user on this course has a shorter course time.
    public var isPersonalBest: Bool

    /// A recorded run.
    public init(record: RunRecord, course: Course, isNewCourse: Bool, isPersonalBest: Bool) {
        self.record = record
        self.course = course
        self.isNewCourse = isNewCourse
        self.isPersonalBest = isPersonalBest
    }
}
