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
        // Courses: while one batch is written, the next is read and drafted on the other cores;
        // rows already here (an earlier copy) are only compared, never drafted.
        var next = Prefetch { try self.coursesToCopy(from: source, after: 0, limit: batchSize) }
        while let batch = try next.value() {
            let after = batch.lastID
            next = Prefetch { try self.coursesToCopy(from: source, after: after, limit: batchSize) }
            do {
                try write { tx in
                    for found in batch.present {
                        guard let identity = try tx.courseIdentity(id: found.id) else {
                            throw StoreError.database("course #\(found.id) went away while it was copied; copy again")
                        }
                        try Self.check(identity, found.identity, kind: "course", id: found.id)
                    }
                    for draft in batch.drafts {
                        let id = draft.record.id!
                        let identity = StoredIdentity(owner: draft.record.owner, contentHash: draft.contentHash)
                        if let found = try tx.courseIdentity(id: id) {
                            try Self.check(found, identity, kind: "course", id: id)
                            summary.coursesPresent += 1
                            continue
                        }
                        do {
                            _ = try tx.insertCourse(draft)
                        } catch StoreError.duplicate(let existingID) {
                            throw StoreError.copyConflict(
                                kind: "course", id: id, found: "missing",
                                copying: "the same content as course #\(existingID) of \(identity.owner)")
                        }
                        summary.courses += 1
                    }
                }
            } catch {
                _ = try? next.value()
                throw error
            }
            summary.coursesPresent += batch.present.count
            done += batch.count
            progress(CopyProgress(done: done, total: max(total, done)))
        }
        var last: Int64 = 0
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

    /// A batch of source courses: drafts of those missing here, and those already here.
    private struct CourseBatch: Sendable {
        var drafts: [CourseDraft] = []
        var present: [(id: Int64, identity: StoredIdentity)] = []
        var lastID: Int64
        var count: Int
    }

    /// The next batch of `source`'s courses after id `after`, drafted; `nil` after the last.
    private func coursesToCopy(from source: CourseStore, after: Int64, limit: Int) throws -> CourseBatch? {
        let stored = try source.read { try $0.storedCourses(after: after, limit: limit) }
        guard let lastID = stored.last?.id else { return nil }
        let here = try read { tx in try stored.map { try tx.courseIdentity(id: $0.id) } }
        var batch = CourseBatch(lastID: lastID, count: stored.count)
        var missing: [StoredCourse] = []
        for (course, found) in zip(stored, here) {
            if found != nil {
                batch.present.append((course.id, StoredIdentity(owner: course.owner, contentHash: course.contentHash)))
            } else {
                missing.append(course)
            }
        }
        batch.drafts = try Self.drafts(copying: missing)
        return batch
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

/// A value computed on another thread from the moment it is made.
private final class Prefetch<Value: Sendable>: @unchecked Sendable {
    private var result: Result<Value, any Error>?
    private let done = DispatchSemaphore(value: 0)

    init(_ compute: @escaping @Sendable () throws -> Value) {
        DispatchQueue.global().async {
            self.result = Result { try compute() }
            self.done.signal()
        }
    }

    /// Waits for the value.
    func value() throws -> Value {
        done.wait()
        done.signal()
        return try result!.get()
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
