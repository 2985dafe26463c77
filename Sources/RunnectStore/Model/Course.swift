import Foundation
import RunnectKit

/// A course as the store keeps it: who owns it, what it is called, where it starts, its figures,
/// and whether it is shared and scrapped.
///
/// The full path is not held here (lists stay light); ``CourseStore/activity(id:)`` returns it.
public struct Course: Codable, Equatable, Sendable, Identifiable {
    /// Assigned by the store, increasing, never reused.
    public var id: Int64
    /// The user who imported or drew the course.
    public var owner: String
    /// 1–40 characters when given by the user; a title taken from a file is cut to 40.
    public var title: String
    /// What the owner wrote about the course; `nil` when nothing (required to upload).
    public var description: String?
    /// Where the course starts; `nil` when not given.
    public var departure: Departure?
    /// The format the course was read from (RunnectKit's `ActivityFormat` raw value: `gpx-1.1`,
    /// `points`, …).
    public var sourceFormat: String
    /// Lowercase hex SHA-256 of the source file's bytes, or of the canonical `lat,lon lat,lon …`
    /// text of a drawn course.
    public var contentHash: String
    /// The figures computed at import (RunnectKit's default `StatsOptions`), kept at the
    /// resolution of their JSON form (millimetres, milliseconds).
    public var stats: ActivityStats
    /// When the course was stored (UTC, millisecond resolution).
    public var createdAt: Date
    /// Whether the course is shared (uploaded).
    public var isUploaded: Bool
    /// When it was last uploaded; `nil` while private.
    public var uploadedAt: Date?
    /// How many users scrapped it.
    public var scrapCount: Int
    /// Whether the store's current user scrapped it.
    public var isScrapped: Bool

    /// A course from its parts (the store makes them; this is for tests and other stores).
    public init(
        id: Int64, owner: String, title: String, description: String? = nil,
        departure: Departure? = nil, sourceFormat: String, contentHash: String,
        stats: ActivityStats, createdAt: Date, isUploaded: Bool = false, uploadedAt: Date? = nil,
        scrapCount: Int = 0, isScrapped: Bool = false
    ) {
        self.id = id
        self.owner = owner
        self.title = title
        self.description = description
        self.departure = departure
        self.sourceFormat = sourceFormat
        self.contentHash = contentHash
        self.stats = stats
        self.createdAt = createdAt
        self.isUploaded = isUploaded
        self.uploadedAt = uploadedAt
        self.scrapCount = scrapCount
        self.isScrapped = isScrapped
    }

    enum CodingKeys: String, CodingKey {
        case id, owner, title, description, departure
        case sourceFormat = "source_format", contentHash = "content_hash", stats
        case createdAt = "created_at", isUploaded = "is_uploaded", uploadedAt = "uploaded_at"
        case scrapCount = "scrap_count", isScrapped = "is_scrapped"
    }
}
