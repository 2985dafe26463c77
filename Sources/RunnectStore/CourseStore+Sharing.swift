import Foundation
import GRDB

extension CourseStore {
    // MARK: - Changing courses

    /// Gives one of the current user's courses a new title.
    /// - Parameters:
    ///   - id: The course.
    ///   - title: 1–40 characters after trimming.
    /// - Returns: The course as changed.
    /// - Throws: ``StoreError/notFound(_:)``, ``StoreError/notOwner(id:owner:)``,
    ///   ``StoreError/invalidTitle(_:)``.
    public func rename(id: Int64, title: String) throws -> Course {
        try write { db in
            _ = try ownedCourse(db, id: id)
            let title = try Self.validTitle(title)
            try CourseRecord.filter(key: id).updateAll(db, CourseRecord.Columns.title.set(to: title))
            return try reindexed(db, id: id)
        }
    }

    /// Deletes courses of the current user, with their scraps and search entries.
    ///
    /// All or nothing: when one id is unknown or not the user's, nothing is deleted. A course
    /// with records of the user is deleted with them only when `withRecords` says so; one with
    /// records of other runners is never deleted (their records are not the user's to delete).
    /// - Throws: ``StoreError/notFound(_:)``, ``StoreError/notOwner(id:owner:)``,
    ///   ``StoreError/courseHasRecords(id:count:)``, ``StoreError/courseHasOthersRecords(id:count:)``
    ///   for the first offending id.
    public func delete(ids: [Int64], withRecords: Bool = false) throws {
        var seen = Set<Int64>()
        let ids = ids.filter { seen.insert($0).inserted }
        guard !ids.isEmpty else { return }
        try write { db in
            for id in ids { _ = try ownedCourse(db, id: id) }
            typealias R = RecordRow.Columns
            for id in ids {
                let others = try RecordRow.filter(R.courseID == id && R.owner != user).fetchCount(db)
                if others > 0 { throw StoreError.courseHasOthersRecords(id: id, count: others) }
                let own = try RecordRow.filter(R.courseID == id).fetchCount(db)
                if own > 0 && !withRecords { throw StoreError.courseHasRecords(id: id, count: own) }
            }
            try RecordRow.filter(ids.contains(R.courseID)).deleteAll(db)
            for id in ids { try SearchIndex.remove(db, courseID: id) }
            try CourseRecord.deleteAll(db, keys: ids)
        }
    }

    /// Shares one of the current user's courses, with the title and description the service shows.
    /// - Parameters:
    ///   - id: The course.
    ///   - title: 1–40 characters after trimming.
    ///   - description: Not blank.
    /// - Returns: The course, now shared.
    /// - Throws: ``StoreError/notFound(_:)``, ``StoreError/notOwner(id:owner:)``,
    ///   ``StoreError/alreadyUploaded(_:)``, ``StoreError/invalidTitle(_:)``,
    ///   ``StoreError/emptyDescription``.
    public func upload(id: Int64, title: String, description: String) throws -> Course {
        try write { db in
            let course = try ownedCourse(db, id: id)
            guard !course.isUploaded else { throw StoreError.alreadyUploaded(id) }
            let title = try Self.validTitle(title)
            guard let description = try Self.validDescription(description) else { throw StoreError.emptyDescription }
            typealias C = CourseRecord.Columns
            try CourseRecord.filter(key: id).updateAll(
                db, C.isUploaded.set(to: true), C.uploadedAt.set(to: Date()), C.title.set(to: title),
                C.description.set(to: description))
            return try reindexed(db, id: id)
        }
    }

    /// Makes one of the current user's shared courses private again and clears every user's
    /// scraps of it.
    /// - Returns: The course, now private, with no scraps.
    /// - Throws: ``StoreError/notFound(_:)``, ``StoreError/notOwner(id:owner:)``,
    ///   ``StoreError/notUploaded(_:)``.
    public func unupload(id: Int64) throws -> Course {
        try write { db in
            let course = try ownedCourse(db, id: id)
            guard course.isUploaded else { throw StoreError.notUploaded(id) }
            try ScrapRecord.filter(ScrapRecord.Columns.courseID == id).deleteAll(db)
            typealias C = CourseRecord.Columns
            try CourseRecord.filter(key: id).updateAll(db, C.isUploaded.set(to: false), C.uploadedAt.set(to: nil))
            return try fetchCourse(db, id: id)
        }
    }

    /// Bookmarks a shared course (anyone's, the user's own included) for the current user.
    /// - Returns: The course, with ``Course/scrapCount`` one higher.
    /// - Throws: ``StoreError/notFound(_:)``, ``StoreError/notShared(_:)``,
    ///   ``StoreError/alreadyScrapped(_:)``.
    public func scrap(id: Int64) throws -> Course {
        try write { db in
            let course = try fetchCourse(db, id: id)
            guard course.isUploaded else { throw StoreError.notShared(id) }
            guard !course.isScrapped else { throw StoreError.alreadyScrapped(id) }
            try ScrapRecord(courseID: id, user: user, createdAt: Date()).insert(db)
            return try fetchCourse(db, id: id)
        }
    }

    /// Removes the current user's bookmark of a course.
    /// - Returns: The course, with ``Course/scrapCount`` one lower.
    /// - Throws: ``StoreError/notFound(_:)``, ``StoreError/notScrapped(_:)``.
    public func unscrap(id: Int64) throws -> Course {
        try write { db in
            let course = try fetchCourse(db, id: id)
            guard course.isScrapped else { throw StoreError.notScrapped(id) }
            try ScrapRecord.filter(key: [ScrapRecord.Columns.courseID.name: id, ScrapRecord.Columns.user.name: user])
                .deleteAll(db)
            return try fetchCourse(db, id: id)
        }
    }

    // MARK: - Helpers

    /// The course, when the current user owns it.
    private func ownedCourse(_ db: Database, id: Int64) throws -> Course {
        let course = try fetchCourse(db, id: id)
        guard course.owner == user else { throw StoreError.notOwner(id: id, owner: course.owner) }
        return course
    }

    /// Refreshes the search entry of a course whose text changed, and returns the course.
    private func reindexed(_ db: Database, id: Int64) throws -> Course {
        let course = try fetchCourse(db, id: id)
        try SearchIndex.index(db, courseID: id, fields: course.searchFields)
        return course
    }
}
