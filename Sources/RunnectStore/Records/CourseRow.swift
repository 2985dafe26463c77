import Foundation
import GRDB
import RunnectKit

/// A course read for display: every column of `course` but the geometry (and the two figures
/// the list orders use), plus whether the current user scrapped it.
struct CourseRow: FetchableRecord {
    typealias Key = CourseRecord.CodingKeys

    /// The columns selected, in order: ``CourseRecord``'s, less what display does not need.
    static let listed: [Key] = Key.allCases.filter { ![.distanceMeters, .pointCount, .geometry].contains($0) }
    /// Each listed column's place in the row; `is_scrapped` comes after them.
    private static let position = Dictionary(uniqueKeysWithValues: listed.enumerated().map { ($1, $0) })
    private static func at(_ key: Key) -> Int { position[key]! }

    /// Decodes the columns by position rather than through `Decodable`, and the stats JSON with
    /// one decoder for every row: a page of 20 courses took over 2 ms the `Decodable` way, most of
    /// the latency of a search.
    init(row: Row) throws {
        id = row[Self.at(.id)]
        owner = row[Self.at(.owner)]
        title = row[Self.at(.title)]
        description = row[Self.at(.description)]
        departureRegion = row[Self.at(.departureRegion)]
        departureCity = row[Self.at(.departureCity)]
        departureTown = row[Self.at(.departureTown)]
        departureDetail = row[Self.at(.departureDetail)]
        departureName = row[Self.at(.departureName)]
        sourceFormat = row[Self.at(.sourceFormat)]
        contentHash = row[Self.at(.contentHash)]
        createdAt = row[Self.at(.createdAt)]
        isUploaded = row[Self.at(.isUploaded)]
        uploadedAt = row[Self.at(.uploadedAt)]
        scrapCount = row[Self.at(.scrapCount)]
        let json: Data = try row.withUnsafeData(atIndex: Self.at(.stats)) { bytes in
            guard let bytes else { throw StoreError.database("course \(row[Self.at(.id)] as Int64) has no stats") }
            return bytes
        }
        stats = try StoredStats.decode(json).stats
        isScrapped = row[Self.listed.count]
    }

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

    /// The columns to select: ``listed``, then `is_scrapped` computed for `user`.
    static func selection(user: String) -> [any SQLSelectable] {
        listed.map { Column($0) as any SQLSelectable }
            + [
                SQL("EXISTS (SELECT 1 FROM scrap WHERE scrap.course_id = course.id AND scrap.user = \(user))")
                    .forKey("is_scrapped")
            ]
    }

    /// `request` narrowed to the display columns, decoded as rows.
    static func request(_ request: QueryInterfaceRequest<CourseRecord>, user: String) -> QueryInterfaceRequest<
        CourseRow
    > {
        request.select(selection(user: user), as: CourseRow.self)
    }

    var course: Course {
        var departure: Departure?
        if let region = departureRegion, let city = departureCity, let town = departureTown {
            departure = Departure(region: region, city: city, town: town, detail: departureDetail, name: departureName)
        }
        return Course(
            id: id, owner: owner, title: title, description: description, departure: departure,
            sourceFormat: sourceFormat, contentHash: contentHash, stats: stats, createdAt: createdAt,
            isUploaded: isUploaded, uploadedAt: uploadedAt, scrapCount: scrapCount,
            isScrapped: isScrapped)
    }
}
