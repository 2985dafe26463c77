import Dispatch
import Foundation

/// What ``CourseStore/copy(from:batchSize:progress:)`` did.
public struct CopySummary: Sendable, Equatable, Codable {
    /// Rows copied now.
    public var courses = 0, records = 0, scraps = 0
    /// Rows already in the destination (an earlier copy): left as they were.
    public var coursesPresent = 0, recordsPresent = 0, scrapsPresent = 0
    /// Users (owners and scrapping users) of the source.
    public var users = 0

    public init() {}

    enum CodingKeys: String, CodingKey {
        case courses, records, scraps, users
        case coursesPresent = "courses_present", recordsPresent = "records_present"
        case scrapsPresent = "scraps_present"
    }
}

/// How far a copy has come: courses and records read from the source so far, of how many.
public struct CopyProgress: Sendable, Equatable {
    public var done: Int
    public var total: Int
}

extension CourseStore {
    // MARK: - Copying a store

    /// Copies every course, record, scrap and user of `source` into this store, SQLite to
    /// PostgreSQL or back: ids, owners, dates, sharing and content hashes kept; search and spatial
    /// entries made anew; counters counted from the rows copied.
    ///
    /// Idempotent: a row whose id is already here with the same owner and content is left as it
    /// is, so a copy cut short is completed by running it again. On PostgreSQL, both ends act as
    /// an administrator (the tables' owner sees and writes every runner's rows), and the source's
    /// users become runners' login roles here (without a password).
    ///
    /// - Parameters:
    ///   - source: The store to copy from; it is only read.
    ///   - batchSize: Rows per transaction.
    ///   - progress: Called after each batch.
    /// - Throws: ``StoreError/copyConflict(kind:id:found:copying:)`` when this store holds another
    ///   row under a source id (nothing of that batch is written);
    ///   ``StoreError/corruptGeometry(id:reason:)`` for a source course whose path cannot be read.
    @discardableResult
    public func copy(
        from source: CourseStore, batchSize: Int = 500, progress: (CopyProgress) -> Void = { _ in }
    ) throws -> CopySummary {
        var summary = CopySummary()
        let users = try source.read { try $0.storedUsers() }
        summary.users = users.count
        try backend.ensureUsers(users)
        let total = try source.read { tx in try tx.counts().courses }
        var done = 0
        // Courses: read a batch, make its drafts on every core, write it.
        var last: Int64 = 0
        while true {
            let stored = try source.read { try $0.storedCourses(after: last, limit: batchSize) }
            guard let end = stored.last?.id else { break }
            last = end
            let drafts = try Self.drafts(copying: stored)
            try write { tx in
                for draft in drafts {
                    let identity = StoredIdentity(owner: draft.record.owner, contentHash: draft.contentHash)
                    if let found = try tx.courseIdentity(id: draft.record.id!) {
                        try Self.check(found, identity, kind: "course", id: draft.record.id!)
                        summary.coursesPresent += 1
                        continue
                    }
                    do {
                        _ = try tx.insertCourse(draft)
                    } catch StoreError.duplicate(let existingID) {
                        throw StoreError.copyConflict(
                            kind: "course", id: draft.record.id!, found: "missing",
                            copying: "the same content as course #\(existingID) of \(identity.owner)")
                    }
                    summary.courses += 1
                }
            }
            done += stored.count
            progress(CopyProgress(done: done, total: max(total, done)))
        }
        last = 0
        while true {
            let records = try source.read { try $0.storedRecords(after: last, limit: batchSize) }
            guard let end = records.last?.id else { break }
            last = end
            try write { tx in
                for record in records {
                    let identity = StoredIdentity(owner: record.owner, contentHash: record.contentHash)
                    if let found = try tx.recordIdentity(id: record.id!) {
                        try Self.check(found, identity, kind: "record", id: record.id!)
                        summary.recordsPresent += 1
                    } else {
                        _ = try tx.insertRecord(record)
                        summary.records += 1
                    }
                }
            }
        }
        let scraps = try source.read { try $0.storedScraps() }
        try write { tx in
            for scrap in scraps {
                if try tx.insertScrap(scrap) { summary.scraps += 1 } else { summary.scrapsPresent += 1 }
            }
            try tx.identitiesCopied()
        }
        return summary
    }

    /// Drafts of stored courses, made on every core (decoding paths and cutting search grams is
    /// what a copy spends its time on).
    private static func drafts(copying stored: [StoredCourse]) throws -> [CourseDraft] {
        let results = DraftSlots(count: stored.count)
        DispatchQueue.concurrentPerform(iterations: stored.count) { index in
            results.set(index, Result { try CourseDraft(copying: stored[index]) })
        }
        return try results.values.map { try $0!.get() }
    }

    private static func check(_ found: StoredIdentity, _ copying: StoredIdentity, kind: String, id: Int64) throws {
        guard found != copying else { return }
        throw StoreError.copyConflict(
            kind: kind, id: id, found: "\(found.owner)'s \(found.contentHash.prefix(12))…",
            copying: "\(copying.owner)'s \(copying.contentHash.prefix(12))…")
    }
}

/// Results filled from several threads.
private final class DraftSlots: @unchecked Sendable {
    private(set) var values: [Result<CourseDraft, any Error>?]
    private let lock = NSLock()

    init(count: Int) {
        values = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ value: Result<CourseDraft, any Error>) {
        lock.lock()
        values[index] = value
        lock.unlock()
    }
}
