/// What became of one file of a bulk import.
public enum ImportOutcome: Sendable {
    /// Stored as a new course.
    case imported(ImportItem, Course)
    /// Stored as a record of a run (see ``RunMatching``).
    case recorded(ImportItem, RecordedRun)
    /// The user had stored the same content before, as the course with this id.
    case skipped(ImportItem, existingID: Int64)
    /// The user had recorded the same run before, as this record.
    case alreadyRecorded(ImportItem, recordID: Int64)
    /// Not stored: the file could not be read, or the course not stored. Nothing of it was kept.
    case failed(ImportItem, any Error)

    /// The file this is about.
    public var item: ImportItem {
        switch self {
        case .imported(let item, _), .recorded(let item, _), .skipped(let item, _), .alreadyRecorded(let item, _),
            .failed(let item, _):
            return item
        }
    }
}
