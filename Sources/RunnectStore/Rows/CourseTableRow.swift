import Foundation
import GRDB
import RunnectKit

/// A row of the `course` table, as written on import: the one place its columns are named
/// (``CodingKeys``; ``Columns``, the insert and ``CourseRow``'s selection are made from them). The
/// migrations spell them again on purpose: a released migration keeps meaning what it meant.
///
/// Reads go through ``CourseRow``, which leaves the geometry blob out.
package struct CourseTableRow: Codable, FetchableRecord, MutablePersistableRecord {
    package static let databaseTableName = "course"

    package var id: Int64?
    package var owner: String
    package var title: String
    package var description: String?
    package var departureRegion: String?
    package var departureCity: String?
    package var departureTown: String?
    package var departureDetail: String?
    package var departureName: String?
    package var sourceFormat: String
    package var contentHash: String
    package var createdAt: Date
    package var isUploaded: Bool
    package var uploadedAt: Date?
    /// Maintained by triggers on `scrap` (see ``SQLiteBackend/migrator``); written as 0 on insert.
    package var scrapCount: Int
    package var distanceMeters: Double
    package var pointCount: Int
    /// The figures, in their storage format (JSON text, versioned apart from the `--json` output).
    package var stats: StoredStats
    /// The whole ``Activity``, encoded by ``ActivityCodec``.
    package var geometry: Data

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case id, owner, title, description
        case departureRegion = "departure_region", departureCity = "departure_city"
        case departureTown = "departure_town", departureDetail = "departure_detail"
        case departureName = "departure_name"
        case sourceFormat = "source_format", contentHash = "content_hash", createdAt = "created_at"
        case isUploaded = "is_uploaded", uploadedAt = "uploaded_at", scrapCount = "scrap_count"
        case distanceMeters = "distance_m", pointCount = "point_count", stats, geometry
    }

    package enum Columns {
        static let id = Column(CodingKeys.id)
        static let owner = Column(CodingKeys.owner)
        static let title = Column(CodingKeys.title)
        static let description = Column(CodingKeys.description)
        static let departureRegion = Column(CodingKeys.departureRegion)
        static let departureCity = Column(CodingKeys.departureCity)
        static let departureTown = Column(CodingKeys.departureTown)
        static let departureDetail = Column(CodingKeys.departureDetail)
        static let departureName = Column(CodingKeys.departureName)
        static let sourceFormat = Column(CodingKeys.sourceFormat)
        static let contentHash = Column(CodingKeys.contentHash)
        static let createdAt = Column(CodingKeys.createdAt)
        static let isUploaded = Column(CodingKeys.isUploaded)
        static let uploadedAt = Column(CodingKeys.uploadedAt)
        static let scrapCount = Column(CodingKeys.scrapCount)
        static let distanceMeters = Column(CodingKeys.distanceMeters)
        static let pointCount = Column(CodingKeys.pointCount)
        static let stats = Column(CodingKeys.stats)
        static let geometry = Column(CodingKeys.geometry)
    }

    package static func databaseJSONEncoder(for column: String) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    // MARK: - Insert

    /// The columns an insert writes, in order: all (`id` is `NULL` for a new course, given by a copy).
    static let insertedColumns = CodingKeys.allCases

    /// `INSERT INTO course (…) VALUES (?, …)` over ``insertedColumns``: one cached statement, no
    /// per-course SQL building or record encoding.
    static let insertSQL =
        "INSERT INTO course (\(insertedColumns.map(\.rawValue).joined(separator: ", "))) "
        + "VALUES (\(Array(repeating: "?", count: insertedColumns.count).joined(separator: ", ")))"

    /// The values of ``insertedColumns``, the stats as JSON text already encoded.
    func insertArguments(statsJSON: String) -> StatementArguments {
        StatementArguments(
            Self.insertedColumns.map { key -> (any DatabaseValueConvertible)? in
                switch key {
                case .id: return id
                case .owner: return owner
                case .title: return title
                case .description: return description
                case .departureRegion: return departureRegion
                case .departureCity: return departureCity
                case .departureTown: return departureTown
                case .departureDetail: return departureDetail
                case .departureName: return departureName
                case .sourceFormat: return sourceFormat
                case .contentHash: return contentHash
                case .createdAt: return createdAt
                case .isUploaded: return isUploaded
                case .uploadedAt: return uploadedAt
                case .scrapCount: return scrapCount
                case .distanceMeters: return distanceMeters
                case .pointCount: return pointCount
                case .stats: return statsJSON
                case .geometry: return geometry
                }
            })
    }

    package mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// The departure columns of `departure` (all `nil` without one).
    mutating func setDeparture(_ departure: Departure?) {
        departureRegion = departure?.region
        departureCity = departure?.city
        departureTown = departure?.town
        departureDetail = departure?.detail
        departureName = departure?.name
    }
}

// MARK: - Requests

extension DerivableRequest<CourseTableRow> {
    /// Courses owned by `user`.
    func owned(by user: String) -> Self {
        filter(CourseTableRow.Columns.owner == user)
    }

    /// Shared (uploaded) courses, or private ones with `false`.
    func uploaded(_ isUploaded: Bool = true) -> Self {
        filter(CourseTableRow.Columns.isUploaded == isUploaded)
    }

    /// Courses `user` may read: their own and shared ones (PostgreSQL's `course_read` policy).
    func readable(by user: String) -> Self {
        filter(CourseTableRow.Columns.owner == user || CourseTableRow.Columns.isUploaded == true)
    }

    /// ``readable(by:)`` for rows picked by id: the condition kept out of the indexes' way (unary
    /// `+`), so that SQLite reads the picked rows by their key. Left to choose, it read every
    /// shared course through the OR's two indexes: 9 ms for a feed page of 10 at 100,000 shared
    /// courses, against 0.1 ms (`scripts/bench-serve.sh`, Benchmarks.md).
    func readableByKey(by user: String) -> Self {
        filter(sql: "(+course.owner = ? OR +course.is_uploaded = 1)", arguments: [user])
    }

    /// Courses `user` scrapped.
    func scrapped(by user: String) -> Self {
        filter(sql: "course.id IN (SELECT scrap.course_id FROM scrap WHERE scrap.user = ?)", arguments: [user])
    }

    /// In the order of `sort`; every order ends with the id so that ties are stable across pages.
    /// ``CourseSort/relevance`` means nothing outside a search and sorts by date.
    func sorted(by sort: CourseSort) -> Self {
        typealias C = CourseTableRow.Columns
        switch sort {
        case .date, .relevance:
            return order(C.createdAt.desc, C.id.desc)
        case .scrap:
            return order(C.scrapCount.desc, C.createdAt.desc, C.id.desc)
        case .distance:
            return order(C.distanceMeters.asc, C.id.asc)
        }
    }
}
