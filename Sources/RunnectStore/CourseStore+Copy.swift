import Dispatch
import Foundation

/// What ``CourseStore/copy(from:batchSize:enrollingExistingRoles:progress:)`` did.
public struct CopySummary: Sendable, Equatable, Codable {
    /// Rows copied now.
    public var courses = 0, records = 0, scraps = 0
    /// Rows already in the destination (an earlier copy): left as they were.
    public var coursesPresent = 0, recordsPresent = 0, scrapsPresent = 0
    /// Users (owners and scrapping users) of the source.
    public var users = 0
    /// Existing PostgreSQL roles that were not runners and became runners (`enrollingExistingRoles`);
    /// not part of the JSON form.
    public var enrolledRoles: [String] = []

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
    ///   - enrollingExistingRoles: On PostgreSQL, let owners name existing roles that are not
    ///     runners, which become runners (``CopySummary/enrolledRoles``); else the copy refuses
    ///     them before writing anything.
    ///   - progress: Called after each batch.
    /// - Throws: ``StoreError/copyConflict(kind:id:reason:)`` when this store holds another
    ///   row under a source id (nothing of that batch is written);
    ///   ``StoreError/corruptGeometry(id:reason:)`` for a source course whose path cannot be read;
    ///   on PostgreSQL, the refusals of owners named (`PostgresAdministrationError`), before
    ///   anything is written.
    @discardableResult
    public func copy(
        from source: CourseStore, batchSize: Int = 500, enrollingExistingRoles: Bool = false,
        progress: (CopyProgress) -> Void = { _ in }
    ) async throws -> CopySummary {
        var summary = CopySummary()
        let users = try await source.read { try await $0.storedUsers() }
        summary.users = users.count
        summary.enrolledRoles = try await backend.ensureUsers(users, enrollingExisting: enrollingExistingRoles)
        let total = try await source.read { tx in try await tx.counts().courses }
        var done = 0
        let setAside = try await backend.copyCoursesBegin()
        // Courses: while batches are written (up to the backend's `copyWriters` side by side),
        // the next is read and drafted on the other cores; rows already here (an earlier copy)
        // are only compared, never drafted.
        var next = Task { try await self.coursesToCopy(from: source, after: 0, limit: batchSize) }
        var writing: [Task<(counts: Counts, batch: CourseBatch), any Error>] = []
        func finish(_ writer: Task<(counts: Counts, batch: CourseBatch), any Error>) async throws {
            let (counts, batch) = try await writer.value
            summary.courses += counts.copied
            summary.coursesPresent += counts.present + batch.present
            done += batch.count
            progress(CopyProgress(done: done, total: max(total, done)))
        }
        do {
            while let batch = try await next.value {
                let after = batch.lastID
                next = Task { try await self.coursesToCopy(from: source, after: after, limit: batchSize) }
                if writing.count >= max(1, backend.copyWriters) { try await finish(writing.removeFirst()) }
                writing.append(Task { (try await self.writeCopied(batch), batch) })
            }
            while !writing.isEmpty { try await finish(writing.removeFirst()) }
        } catch {
            // Nothing may still be running once the copy has stopped.
            for writer in writing { _ = try? await writer.value }
            _ = try? await next.value
            if setAside { try? await backend.copyCoursesEnded() }
            throw error
        }
        if setAside { try await backend.copyCoursesEnded() }
        // Courses deleted with other runners' records: kept before those records are copied.
        let deleted = try await source.read { try await $0.storedDeletedCourses() }
        if !deleted.isEmpty { _ = try await write { try await $0.insertDeletedCourses(deleted) } }
        var last: Int64 = 0
        while true {
            let after = last
            let records = try await source.read { try await $0.storedRecords(after: after, limit: batchSize) }
            guard let end = records.last?.id else { break }
            last = end
            let counts = try await write { tx in
                var counts = Counts()
                for record in records {
                    let identity = StoredIdentity(owner: record.owner, contentHash: record.contentHash)
                    if let found = try await tx.recordIdentity(id: record.id!) {
                        try Self.check(found, identity, kind: "record", id: record.id!)
                        counts.present += 1
                    } else {
                        _ = try await tx.insertRecord(record)
                        counts.copied += 1
                    }
                }
                return counts
            }
            summary.records += counts.copied
            summary.recordsPresent += counts.present
        }
        let scraps = try await source.read { try await $0.storedScraps() }
        let counts = try await write { tx in
            var counts = Counts()
            for scrap in scraps {
                if try await tx.insertScrap(scrap) { counts.copied += 1 } else { counts.present += 1 }
            }
            try await tx.identitiesCopied()
            return counts
        }
        summary.scraps = counts.copied
        summary.scrapsPresent = counts.present
        return summary
    }

    /// Writes the courses of `batch` missing here, in a transaction of their own that may run
    /// beside another batch's (their rows never overlap); counted from what the transaction
    /// returns, as a backend may run it again (a deadlock).
    /// - Throws: ``StoreError/copyConflict(kind:id:reason:)``, nothing of the batch written.
    private func writeCopied(_ batch: CourseBatch) async throws -> Counts {
        try await backend.writeBeside(as: user) { tx in
            var counts = Counts()
            // Copied meanwhile (a copy running beside this one)?
            let here = try await tx.courseIdentities(ids: batch.drafts.map { $0.record.id! })
            var fresh: [CourseDraft] = []
            for draft in batch.drafts {
                let id = draft.record.id!
                if let found = here[id] {
                    let identity = StoredIdentity(owner: draft.record.owner, contentHash: draft.contentHash)
                    try Self.check(found, identity, kind: "course", id: id)
                    counts.present += 1
                } else {
                    fresh.append(draft)
                }
            }
            if let conflict = try await tx.insertCopiedCourses(fresh) {
                let draft = fresh[conflict.index]
                throw StoreError.copyConflict(
                    kind: "course", id: draft.record.id!,
                    reason: "the destination holds the same content of \(draft.record.owner) "
                        + "as course #\(conflict.existingID)")
            }
            counts.copied += fresh.count
            return counts
        }
    }

    /// Rows a transaction copied, and rows it found there already.
    private struct Counts: Sendable {
        var copied = 0
        var present = 0
    }

    /// A batch of source courses: drafts of those missing here, and those already here.
    private struct CourseBatch: Sendable {
        var drafts: [CourseDraft] = []
        /// Courses already here, owner and content the same.
        var present = 0
        var lastID: Int64
        var count: Int
    }

    /// The next batch of `source`'s courses after id `after`, drafted; `nil` after the last.
    private func coursesToCopy(from source: CourseStore, after: Int64, limit: Int) async throws -> CourseBatch? {
        let stored = try await source.read { try await $0.storedCourses(after: after, limit: limit) }
        guard let lastID = stored.last?.id else { return nil }
        let here = try await read { tx in try await tx.courseIdentities(ids: stored.map(\.id)) }
        var batch = CourseBatch(lastID: lastID, count: stored.count)
        var missing: [StoredCourse] = []
        for course in stored {
            if let found = here[course.id] {
                let identity = StoredIdentity(owner: course.owner, contentHash: course.contentHash)
                try Self.check(found, identity, kind: "course", id: course.id)
                batch.present += 1
            } else {
                missing.append(course)
            }
        }
        batch.drafts = try await Self.drafts(copying: missing)
        return batch
    }

    /// Drafts of stored courses, made on every core (decoding paths and cutting search grams is
    /// what a copy spends its time on).
    private static func drafts(copying stored: [StoredCourse]) async throws -> [CourseDraft] {
        try await Prefetch.run {
            try DraftPipeline.drafts(of: stored, jobs: BulkImporter.defaultJobs) { course in
                Result { try CourseDraft(copying: course) }
            }.map { try $0.get() }
        }
    }

    private static func check(_ found: StoredIdentity, _ copying: StoredIdentity, kind: String, id: Int64) throws {
        guard found != copying else { return }
        throw StoreError.copyConflict(
            kind: kind, id: id,
            reason: "the destination holds \(found.owner)'s \(found.contentHash.prefix(12))… under that id, "
                + "the source \(copying.owner)'s \(copying.contentHash.prefix(12))…")
    }
}
