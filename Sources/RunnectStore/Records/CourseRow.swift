import Foundation
import GRDB
import RunnectKit

/// A course read for display: every column of `course` but the geometry, plus whether the
/// current user scrapped it.
struct CourseRow: Decodable, FetchableRecord {
    var id: Int64
    var owner: String
    var title: String
    var description: String?
    var departureRegion: String?
    var departureCity: String?
    var departureTown: String?
    var departureDetail: String?
    var departureName: String?
    var sourceFormat: String
    var contentHash: String
    var createdAt: Date
    var isUploaded: Bool
    var uploadedAt: Date?
    var scrapCount: Int
    var stats: ActivityStats
    var isScrapped: Bool

    enum CodingKeys: String, CodingKey {
        case id, owner, title, description
        case departureRegion = "departure_region", departureCity = "departure_city"
        case departureTown = "departure_town", departureDetail = "departure_detail"
        case departureName = "departure_name"
        case sourceFormat = "source_format", contentHash = "content_hash", createdAt = "created_at"
        case isUploaded = "is_uploaded", uploadedAt = "uploaded_at", scrapCount = "scrap_count"
        case stats, isScrapped = "is_scrapped"
    }

    /// The columns to select, `is_scrapped` computed for `user`.
    static func selection(user: String) -> [any SQLSelectable] {
        typealias C = CourseRecord.Columns
        return [C.id, C.owner, C.title, C.description, C.departureRegion, C.departureCity, C.departureTown,
                C.departureDetail, C.departureName, C.sourceFormat, C.contentHash, C.createdAt, C.isUploaded,
                C.uploadedAt, C.scrapCount, C.stats,
                SQL("EXISTS (SELECT 1 FROM scrap WHERE scrap.course_id = course.id AND scrap.user = \(user))")
                    .forKey(CodingKeys.isScrapped.stringValue)]
    }

    /// `request` narrowed to the display columns, decoded as rows.
    static func request(_ request: QueryInterfaceRequest<CourseRecord>, user: String) -> QueryInterfaceRequest<CourseRow> {
        request.select(selection(user: user), as: CourseRow.self)
    }

    var course: Course {
        var departure: Departure?
        if let region = departureRegion, let city = departureCity, let town = departureTown {
            departure = Departure(region: region, city: city, town: town, detail: departureDetail, name: departureName)
        }
        return Course(id: id, owner: owner, title: title, description: description, departure: departure,
                      sourceFormat: sourceFormat, contentHash: contentHash, stats: stats, createdAt: createdAt,
                      isUploaded: isUploaded, uploadedAt: uploadedAt, scrapCount: scrapCount,
                      isScrapped: isScrapped)
    }
}
