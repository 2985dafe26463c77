import Foundation
import GRDB

/// A row of the `scrap` table: `user` bookmarked the shared course `courseID`.
struct ScrapRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "scrap"

    var courseID: Int64
    var user: String
    var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case courseID = "course_id", user, createdAt = "created_at"
    }

    enum Columns {
        static let courseID = Column(CodingKeys.courseID)
        static let user = Column(CodingKeys.user)
        static let createdAt = Column(CodingKeys.createdAt)
    }
}
