/// Counts of a bulk import.
public struct ImportSummary: Sendable, Hashable, Codable {
    /// Files stored: as new courses, or as records of runs.
    public var imported = 0
    /// Of those, the runs stored as records.
    public var recorded = 0
    /// Files whose content the user had stored before.
    public var skipped = 0
    /// Files not stored.
    public var failed = 0

    /// Files seen.
    public var total: Int { imported + skipped + failed }

    /// An empty summary.
    public init() {}

    /// Counts one more outcome.
    public mutating func add(_ outcome: ImportOutcome) {
        switch outcome {
        case .imported: imported += 1
        case .recorded:
            imported += 1
            recorded += 1
        case .skipped, .alreadyRecorded: skipped += 1
        case .failed: failed += 1
        }
    }
}
