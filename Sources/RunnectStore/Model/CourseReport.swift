import Foundation
import RunnectKit

/// One course as `runnect`'s `--json` prints it and its GeoJSON exports carry as properties:
/// identity and flags first-class, the stats nested.
public struct CourseReport: Encodable, Sendable {
    /// The course.
    public let course: Course
    /// `show` only: every runner's record count of the course and the user's best course time.
    public var records: (count: Int, bestCourseTimeSeconds: Double?)?
    /// Near-me searches only: how far the path passes from the point, metres (`away_m`; the
    /// course's own length is `distance_m`).
    public var awayMeters: Double?
    /// Whether `owner`, `content_hash` and `is_scrapped` are written: what a server leaves out of
    /// what it hands to anyone (an owner's role name may carry a sign-in identity; the others
    /// say what the asker did, not what the course is).
    public var includesOwner = true

    /// The report of `course`.
    public init(_ course: Course) {
        self.course = course
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, owner, description, departure, address, isUploaded = "is_uploaded"
        case uploadedAt = "uploaded_at", isScrapped = "is_scrapped", scrapCount = "scrap_count"
        case createdAt = "created_at", sourceFormat = "source_format", contentHash = "content_hash"
        case distanceMeters = "distance_m", stats
        case recordCount = "record_count", bestCourseTime = "best_course_time_s"
        case awayMeters = "away_m"
    }

    private enum DepartureKeys: String, CodingKey {
        case region, city, town, detail, name
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(course.id, forKey: .id)
        try c.encode(course.title, forKey: .title)
        if includesOwner { try c.encode(course.owner, forKey: .owner) }
        try c.encode(course.description, forKey: .description)
        if let departure = course.departure {
            var d = c.nestedContainer(keyedBy: DepartureKeys.self, forKey: .departure)
            try d.encode(departure.region, forKey: .region)
            try d.encode(departure.city, forKey: .city)
            try d.encode(departure.town, forKey: .town)
            try d.encode(departure.detail, forKey: .detail)
            try d.encode(departure.name, forKey: .name)
            try c.encode(departure.address, forKey: .address)
        } else {
            try c.encodeNil(forKey: .departure)
            try c.encodeNil(forKey: .address)
        }
        try c.encode(course.isUploaded, forKey: .isUploaded)
        try c.encode(course.uploadedAt.map(RunnerFormat.timestamp), forKey: .uploadedAt)
        if includesOwner { try c.encode(course.isScrapped, forKey: .isScrapped) }
        try c.encode(course.scrapCount, forKey: .scrapCount)
        try c.encode(RunnerFormat.timestamp(course.createdAt), forKey: .createdAt)
        try c.encode(course.sourceFormat, forKey: .sourceFormat)
        if includesOwner { try c.encode(course.contentHash, forKey: .contentHash) }
        try c.encode((course.stats.distanceMeters * 1000).rounded() / 1000, forKey: .distanceMeters)
        try c.encode(course.stats, forKey: .stats)
        if let records {
            try c.encode(records.count, forKey: .recordCount)
            try c.encode(JSONResolution.seconds(records.bestCourseTimeSeconds), forKey: .bestCourseTime)
        }
        if let awayMeters {
            // To the millimetre: the distance is good to about 10 µm.
            try c.encode((awayMeters * 1000).rounded() / 1000, forKey: .awayMeters)
        }
    }

    /// The report as one line of JSON, keys sorted.
    public func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
