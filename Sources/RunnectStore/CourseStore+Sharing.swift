import Foundation

extension CourseStore {
    // MARK: - Changing courses

    /// Gives one of the current user's courses a new title.
    /// - Parameters:
    ///   - id: The course.
    ///   - title: 1–40 characters after trimming.
    /// - Returns: The course as changed.
    /// - Throws: ``StoreError/notFound(_:)``, ``StoreError/notOwner(id:owner:)``,
    ///   ``StoreError/invalidTitle(_:)``.
    public func rename(id: Int64, title: String) async throws -> Course {
        try await write { tx in
            _ = try await self.ownedCourse(tx, id: id)
            try await tx.setTitle(id: id, title: try Self.validTitle(title))
            return try await self.fetchCourse(tx, id: id)
        }
    }

    /// Deletes courses of the current user, with their scraps and search entries.
    ///
    /// All or nothing: when one id is unknown or not the user's, nothing is deleted. A course
    /// with records of the user is deleted with them only when `withRecords` says so. Records of
    /// other runners are not the user's to delete: they stay, and keep what they show of the
    /// course (its id, length, departure and path, kept apart by the database), saying that it was
    /// deleted (``RunRecord/isCourseDeleted``); the course itself leaves every list and search.
    /// - Throws: ``StoreError/notFound(_:)``, ``StoreError/notOwner(id:owner:)``,
    ///   ``StoreError/courseHasRecords(id:count:)`` for the first offending id.
    public func delete(ids: [Int64], withRecords: Bool = false) async throws {
        var seen = Set<Int64>()
        let ids = ids.filter { seen.insert($0).inserted }
        guard !ids.isEmpty else { return }
        try await write { tx in
            for id in ids { _ = try await self.ownedCourse(tx, id: id) }
            for id in ids {
                let own = try await tx.recordCounts(course: id).own
                if own > 0 && !withRecords { throw StoreError.courseHasRecords(id: id, count: own) }
            }
            try await tx.deleteCourses(ids: ids)
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
    public func upload(id: Int64, title: String, description: String) async throws -> Course {
        try await write { tx in
            let course = try await self.ownedCourse(tx, id: id)
            guard !course.isUploaded else { throw StoreError.alreadyUploaded(id) }
            let title = try Self.validTitle(title)
            guard let description = try Self.validDescription(description) else { throw StoreError.emptyDescription }
            try await tx.share(id: id, title: title, description: description, at: Date())
            return try await self.fetchCourse(tx, id: id)
        }
    }

    /// Makes one of the current user's shared courses private again and clears every user's
    /// scraps of it.
    /// - Returns: The course, now private, with no scraps.
    /// - Throws: ``StoreError/notFound(_:)``, ``StoreError/notOwner(id:owner:)``,
    ///   ``StoreError/notUploaded(_:)``.
    public func unupload(id: Int64) async throws -> Course {
        try await write { tx in
            let course = try await self.ownedCourse(tx, id: id)
            guard course.isUploaded else { throw StoreError.notUploaded(id) }
            try await tx.unshare(id: id)
            return try await self.fetchCourse(tx, id: id)
        }
    }

    /// Makes shared courses of the current user private again, all or none (as
    /// ``unupload(id:)`` does each).
    /// - Throws: As ``unupload(id:)``, for the first offending id.
    public func unupload(ids: [Int64]) async throws {
        try await write { tx in
            for id in Set(ids).sorted() {
                let course = try await self.ownedCourse(tx, id: id)
                guard course.isUploaded else { throw StoreError.notUploaded(id) }
                try await tx.unshare(id: id)
            }
        }
    }

    /// Changes the title and description of one of the current user's shared courses.
    /// - Returns: The course as changed.
    /// - Throws: ``StoreError/notFound(_:)``, ``StoreError/notOwner(id:owner:)``,
    ///   ``StoreError/notUploaded(_:)``, ``StoreError/invalidTitle(_:)``, ``StoreError/emptyDescription``.
    public func editShared(id: Int64, title: String, description: String) async throws -> Course {
        try await write { tx in
            let course = try await self.ownedCourse(tx, id: id)
            guard course.isUploaded else { throw StoreError.notUploaded(id) }
            let title = try Self.validTitle(title)
            guard let description = try Self.validDescription(description) else { throw StoreError.emptyDescription }
            try await tx.share(id: id, title: title, description: description, at: course.uploadedAt ?? Date())
            return try await self.fetchCourse(tx, id: id)
        }
    }

    /// Bookmarks a shared course (anyone's, the user's own included) for the current user.
    /// - Returns: The course, with ``Course/scrapCount`` one higher.
    /// - Throws: ``StoreError/notFound(_:)``, ``StoreError/notShared(_:)``,
    ///   ``StoreError/alreadyScrapped(_:)``.
    public func scrap(id: Int64) async throws -> Course {
        try await write { tx in
            let course = try await self.fetchCourse(tx, id: id)
            guard course.isUploaded else { throw StoreError.notShared(id) }
            guard !course.isScrapped else { throw StoreError.alreadyScrapped(id) }
            try await tx.addScrap(course: id, at: Date())
            return try await self.fetchCourse(tx, id: id)
        }
    }

    /// Removes the current user's bookmark of a course.
    /// - Returns: The course, with ``Course/scrapCount`` one lower.
    /// - Throws: ``StoreError/notFound(_:)``, ``StoreError/notScrapped(_:)``.
    public func unscrap(id: Int64) async throws -> Course {
        try await write { tx in
            let course = try await self.fetchCourse(tx, id: id)
            guard course.isScrapped else { throw StoreError.notScrapped(id) }
            try await tx.removeScrap(course: id)
            return try await self.fetchCourse(tx, id: id)
        }
    }

    // MARK: - Helpers

    /// The course, when the current user owns it.
    private func ownedCourse(_ tx: any StoreTransaction, id: Int64) async throws -> Course {
        let course = try await fetchCourse(tx, id: id)
        guard course.owner == user else { throw StoreError.notOwner(id: id, owner: course.owner) }
        return course
    }
}
