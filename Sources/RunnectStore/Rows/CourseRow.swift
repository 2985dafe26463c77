import Foundation
import GRDB
import RunnectKit

/// A course read for display: every column of `course` but the geometry (and the two figures
/// the list orders use), plus whether the current user scrapped it.
struct CourseRow: FetchableRecord {
    typealias Key = CourseTableRow.CodingKeys

    /// The columns selected, in order: ``CourseTableRow``'s, less what display does not need.
    static let listed: [Key] = Key.allCases.filter { ![.distanceMeters, .pointCount, .geometry].contains($0) }
    /// Each listed column's place in the row; `is_scrapped` comes after them.
    private static let position = Dictionary(uniqueKeysWithValues: listed.enumerated().map { ($1, $0) })
    private static func at(_ key: Key) -> Int { position[key]! }

    /// Decodes the columns by position rather than through `Decodable`, and the stats JSON with
    /// one decoder for every row: a page of 20 courses took over 2 ms the `Decodable` way, most of
    /// the latency of a search.
    init(row: Row) throws {
        let json: Data = try row.withUnsafeData(atIndex: Self.at(.stats)) { bytes in
            guard let bytes else { throw StoreError.database("course \(row[Self.at(.id)] as Int64) has no stats") }
            return bytes
        }
        let departure = Self.departure(in: row, from: Self.at(.departureRegion))
        let stats: StoredStats
        do {
            stats = try StoredStats.decode(json)
        } catch {
            throw StoreError.database("course \(row[Self.at(.id)] as Int64) has unreadable stats: \(error)")
        }
        course = Course(
            id: row[Self.at(.id)], owner: row[Self.at(.owner)], title: row[Self.at(.title)],
            description: row[Self.at(.description)], departure: departure,
            sourceFormat: row[Self.at(.sourceFormat)], contentHash: row[Self.at(.contentHash)],
            stats: stats.stats, createdAt: row[Self.at(.createdAt)],
            isUploaded: row[Self.at(.isUploaded)], uploadedAt: row[Self.at(.uploadedAt)],
            scrapCount: row[Self.at(.scrapCount)], isScrapped: row[Self.listed.count])
    }

    /// The course the row holds.
    let course: Course

    /// The departure in the five columns from `first` (region, city, town, detail, name, as the
    /// table orders them); `nil` without a region, a city and a town.
    static func departure(in row: Row, from first: Int) -> Departure? {
        guard let region: String = row[first], let city: String = row[first + 1], let town: String = row[first + 2]
        else { return nil }
        return Departure(region: region, city: city, town: town, detail: row[first + 3], name: row[first + 4])
    }

    /// The columns to select: ``listed``, then `is_scrapped` computed for `user`.
    static func selection(user: String) -> [any SQLSelectable] {
        listed.map { Column($0) as any SQLSelectable }
            + [
                SQL("EXISTS (SELECT 1 FROM scrap WHERE scrap.course_id = course.id AND scrap.user = \(user))")
                    .forKey("is_scrapped")
            ]
    }

    /// `request` narrowed to the display columns, decoded as rows.
    static func request(_ request: QueryInterfaceRequest<CourseTableRow>, user: String) -> QueryInterfaceRequest<
        CourseRow
    > {
        request.select(selection(user: user), as: CourseRow.self)
    }
}
