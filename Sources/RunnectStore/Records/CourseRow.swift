import Foundation
import GRDB
import RunnectKit

/// A course read for display: every column of `course` but the geometry, plus whether the
/// current user scrapped it.
struct CourseRow: Decodable, FetchableRecord {
    /// Decodes the columns by position (in the order of ``selection(user:)``) rather than through
    /// `Decodable`, and the stats JSON with one decoder for every row: a page of 20 courses
    /// took over 2 ms the `Decodable` way, most of the latency of a search.
    init(row: Row) throws {
        id = row[0]
        owner = row[1]
        title = row[2]
        description = row[3]
        departureRegion = row[4]
        departureCity = row[5]
        departureTown = row[6]
        departureDetail = row[7]
        departureName = row[8]
        sourceFormat = row[9]
        contentHash = row[10]
        createdAt = row[11]
        isUploaded = row[12]
        uploadedAt = row[13]
        scrapCount = row[14]
        let json: Data = try row.withUnsafeData(atIndex: 15) { bytes in
            guard let bytes else { throw StoreError.database("course \(row[0] as Int64) has no stats") }
            return bytes
        }
        stats = try Self.statsDecoder.decode(ActivityStats.self, from: json)
        isScrapped = row[16]
    }

    /// Shared by every row: making a `JSONDecoder` costs about as much as decoding small stats.
    private static let statsDecoder = JSONDecoder()

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
