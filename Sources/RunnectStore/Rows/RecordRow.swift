import Foundation
import GRDB
import RunnectKit

/// A row of the `record` table: the one place its columns are named (``CodingKeys``), as
/// ``CourseTableRow`` is for `course`.
struct RecordRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "record"

    var id: Int64?
    var owner: String
    var courseID: Int64
    var title: String
    var sourceFormat: String
    var contentHash: String
    var createdAt: Date
    /// The run's first time, for the newest-first order.
    var startTime: Date?
    var distanceMeters: Double
    var pointCount: Int
    var deviceTimerSeconds: Double?
    var courseTimeSeconds: Double
    var courseDistanceMeters: Double
    var matchCoverage: Double
    /// The figures, in their storage format.
    var stats: StoredStats
    /// The whole run, encoded by ``ActivityCodec``.
    var geometry: Data

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, owner, courseID = "course_id", title, sourceFormat = "source_format"
        case contentHash = "content_hash", createdAt = "created_at", startTime = "start_time"
        case distanceMeters = "distance_m", pointCount = "point_count"
        case deviceTimerSeconds = "device_timer_time_s", courseTimeSeconds = "course_time_s"
        case courseDistanceMeters = "course_distance_m", matchCoverage = "match_coverage", stats, geometry
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let owner = Column(CodingKeys.owner)
        static let courseID = Column(CodingKeys.courseID)
        static let contentHash = Column(CodingKeys.contentHash)
        static let startTime = Column(CodingKeys.startTime)
        static let courseTimeSeconds = Column(CodingKeys.courseTimeSeconds)
    }

    static func databaseJSONEncoder(for column: String) -> JSONEncoder {
        CourseTableRow.databaseJSONEncoder(for: column)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// Every column but the geometry, with the course's title where the record's owner (the
    /// only one who reads it) may read the course, and whether the course was deleted: what a
    /// record is shown with.
    static let listedSQL = """
        SELECT record.id, record.owner, record.title, record.course_id,
               CASE WHEN course.owner = record.owner OR course.is_uploaded THEN course.title END,
               record.source_format, record.content_hash, record.stats, record.device_timer_time_s,
               record.course_time_s, record.course_distance_m, record.match_coverage, record.created_at,
               course.id IS NULL
        FROM record LEFT JOIN course ON course.id = record.course_id
        """

    /// A row of ``listedSQL`` as a record.
    static func record(_ row: Row) throws -> RunRecord {
        let json: Data = try row.withUnsafeData(atIndex: 7) { bytes in
            guard let bytes else { throw StoreError.database("record \(row[0] as Int64) has no stats") }
            return bytes
        }
        let stats: StoredStats
        do {
            stats = try StoredStats.decode(json)
        } catch {
            throw StoreError.database("record \(row[0] as Int64) has unreadable stats: \(error)")
        }
        return RunRecord(
            id: row[0], owner: row[1], title: row[2], courseID: row[3], courseTitle: row[4],
            isCourseDeleted: row[13], sourceFormat: row[5], contentHash: row[6], stats: stats.stats,
            deviceTimerSeconds: row[8],
            courseTimeSeconds: row[9], courseDistanceMeters: row[10], matchCoverage: row[11], createdAt: row[12])
    }
}
