import Foundation

/// A course row as stored, every column a copy needs (``CourseStore/copy(from:batchSize:enrollingExistingRoles:progress:)``).
package struct StoredCourse: Sendable {
    package var id: Int64
    package var owner: String
    package var title: String
    package var description: String?
    package var departure: Departure?
    package var sourceFormat: String
    package var contentHash: String
    package var createdAt: Date
    package var isUploaded: Bool
    package var uploadedAt: Date?
    /// The `stats` column's JSON text.
    package var statsJSON: String
    /// The ActivityCodec bytes.
    package var geometry: Data

    package init(
        id: Int64, owner: String, title: String, description: String?, departure: Departure?,
        sourceFormat: String, contentHash: String, createdAt: Date, isUploaded: Bool, uploadedAt: Date?,
        statsJSON: String, geometry: Data
    ) {
        self.id = id
        self.owner = owner
        self.title = title
        self.description = description
        self.departure = departure
        self.sourceFormat = sourceFormat
        self.contentHash = contentHash
        self.createdAt = createdAt
        self.isUploaded = isUploaded
        self.uploadedAt = uploadedAt
        self.statsJSON = statsJSON
        self.geometry = geometry
    }
}

/// One runner's scrap of a course, as stored.
package struct StoredScrap: Sendable, Hashable {
    package var courseID: Int64
    package var user: String
    package var createdAt: Date

    package init(courseID: Int64, user: String, createdAt: Date) {
        self.courseID = courseID
        self.user = user
        self.createdAt = createdAt
    }
}

/// Who owns a stored row, and what content it holds: what a copy compares to tell a row already
/// copied from another one under the same id.
package struct StoredIdentity: Sendable, Equatable {
    package var owner: String
    package var contentHash: String

    package init(owner: String, contentHash: String) {
        self.owner = owner
        self.contentHash = contentHash
    }
}

/// A course its owner deleted, kept for other runners' records of it (SQLite schema version 5,
/// PostgreSQL 15): what those records show of it. Its title is not kept.
package struct StoredDeletedCourse: Sendable, Equatable {
    package var id: Int64
    package var owner: String
    package var distanceMeters: Double
    package var departure: Departure?
    /// The course's ActivityCodec bytes, for its preview.
    package var geometry: Data
    package var deletedAt: Date

    package init(
        id: Int64, owner: String, distanceMeters: Double, departure: Departure?, geometry: Data, deletedAt: Date
    ) {
        self.id = id
        self.owner = owner
        self.distanceMeters = distanceMeters
        self.departure = departure
        self.geometry = geometry
        self.deletedAt = deletedAt
    }
}
