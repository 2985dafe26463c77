import Foundation
import RunnectKit

/// Imports many files into a store: reads, hashes and drafts them on several threads while the
/// calling thread stores them, a batch of files per transaction.
///
/// Each file is atomic (a savepoint of its own: a file that fails leaves nothing behind and the
/// batch goes on), and each batch is one transaction, so a process killed midway leaves whole
/// courses only. Batches are kept small (``batchFiles`` files, ``batchBytes`` bytes of files) so
/// that another process writing the same database waits milliseconds, not seconds, and memory
/// holds two batches at most: the one being stored and the one being read.
///
/// ```swift
/// let importer = BulkImporter(store: store, jobs: 4)
/// let summary = try importer.run(items) { outcomes in
///     for case .failed(let item, let error) in outcomes { print(item.path, error) }
/// }
/// ```
public struct BulkImporter: Sendable {
    /// Where courses go.
    public var store: CourseStore
    /// Threads that read and draft files (at least 1); the storing thread is the caller's.
    public var jobs: Int
    /// Most files in one batch.
    public var batchFiles = 64
    /// Most bytes of files in one batch (a single bigger file makes a batch of its own).
    public var batchBytes: Int64 = 32 << 20
    /// Merge the search index after an import this big (see ``CourseStore/optimizeSearch()``).
    public var optimizeAfter = 1_000
    /// How timed runs become records of the courses they followed (`runnect import` sets it);
    /// `nil`, the default, stores every file as a course.
    public var matching: RunMatching?

    /// An importer writing to `store`, reading on `jobs` threads.
    public init(store: CourseStore, jobs: Int = BulkImporter.defaultJobs) {
        self.store = store
        self.jobs = max(1, jobs)
    }

    /// The processors of the machine, at most 8.
    public static var defaultJobs: Int { min(8, max(1, ProcessInfo.processInfo.activeProcessorCount)) }

    /// Imports `items` in order.
    ///
    /// - Parameters:
    ///   - items: The files, in the order their outcomes are reported.
    ///   - onBatch: Called on the calling thread after each batch is stored, with the outcome of
    ///     each of its files in order.
    ///   - onWarnings: Called on the calling thread before `onBatch`, for each file of the batch
    ///     stored (imported or recorded) whose reader had warnings (``CourseDraft/warnings``:
    ///     times going back, say), in order; what is stored is the same with or without them.
    /// - Returns: The counts.
    /// - Throws: ``ImportStopped`` when a batch's transaction fails as a whole (the database went
    ///   away, say): the batches before it stay stored, and it names the files not imported.
    @discardableResult
    public func run(
        _ items: [ImportItem], onBatch: ([ImportOutcome]) -> Void = { _ in },
        onWarnings: (ImportItem, [String]) -> Void = { _, _ in }
    ) async throws -> ImportSummary {
        var summary = ImportSummary()
        let matching = matching
        let batches = Self.batches(of: items, files: batchFiles, bytes: batchBytes)
        var stored = 0
        do {
            try await DraftPipeline.run(batches, jobs: jobs) { item in
                Result {
                    try CourseDraft(
                        source: CourseSource(path: item.path), title: item.title,
                        description: item.description, departure: item.departure, matching: matching)
                }
            } store: { batch, drafted in
                let outcomes = try await save(batch, drafted)
                stored += 1
                for (outcome, drafting) in zip(outcomes, drafted) {
                    guard case .success(let draft) = drafting, !draft.warnings.isEmpty else { continue }
                    switch outcome {
                    case .imported, .recorded: onWarnings(outcome.item, draft.warnings)
                    case .skipped, .alreadyRecorded, .failed: continue
                    }
                }
                for outcome in outcomes { summary.add(outcome) }
                onBatch(outcomes)
            }
        } catch let error as StoreError {
            throw ImportStopped(reason: error, notImported: batches[stored...].flatMap { $0.map(\.path) })
        }
        if summary.imported >= optimizeAfter {
            try await store.optimizeSearch()
        }
        return summary
    }

    /// Stores the drafts of one batch in one transaction.
    private func save(_ batch: [ImportItem], _ drafted: [Result<CourseDraft, any Error>]) async throws
        -> [ImportOutcome]
    {
        var drafts: [CourseDraft] = []
        for case .success(let draft) in drafted { drafts.append(draft) }
        var stored = try await store.store(drafts).makeIterator()
        return zip(batch, drafted).map { item, drafting in
            switch drafting {
            case .failure(let error):
                return .failed(item, error)
            case .success:
                switch stored.next()! {
                case .success(.course(let course)): return .imported(item, course)
                case .success(.record(let recorded)): return .recorded(item, recorded)
                case .failure(.duplicate(let existing)): return .skipped(item, existingID: existing)
                case .failure(.duplicateRecord(let existing)): return .alreadyRecorded(item, recordID: existing)
                case .failure(let error): return .failed(item, error)
                }
            }
        }
    }

    /// `items` cut into runs of at most `files` files and `bytes` bytes.
    static func batches(of items: [ImportItem], files: Int, bytes: Int64) -> [[ImportItem]] {
        var batches: [[ImportItem]] = []
        var current: [ImportItem] = []
        var size: Int64 = 0
        for item in items {
            let itemSize = (try? FileManager.default.attributesOfItem(atPath: item.path)[.size] as? Int64) ?? 0
            if !current.isEmpty && (current.count >= files || size + itemSize > bytes) {
                batches.append(current)
                current = []
                size = 0
            }
            current.append(item)
            size += itemSize
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }
}
