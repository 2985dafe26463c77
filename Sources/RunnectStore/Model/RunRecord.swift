import Foundation
import RunnectKit

/// A run kept as a record of the course it followed: what a runner sees as "my time on this
/// course". A record belongs to its owner (private: no one else reads it) and to exactly one
/// course; its activity is kept whole, as imported.
public struct RunRecord: Codable, Equatable, Sendable, Identifiable {
    /// The record's id (its own sequence, apart from course ids).
    public var id: Int64
    /// Who ran it.
    public var owner: String
    /// 1–40 characters: the file's own name by default, as for courses.
    public var title: String
    /// The course it is a record of.
    public var courseID: Int64
    /// That course's title, as it is now; `nil` when the runner may not read the course (another
    /// runner's course, made private since) or when its owner deleted it: a course the runner
    /// cannot see is not named.
    public var courseTitle: String?
    /// Whether the course's owner deleted it. The record keeps what it shows of the course: its
    /// id, its length (``courseDistanceMeters``) and the course time.
    public var isCourseDeleted: Bool
    /// The format the run was read from (RunnectKit's `ActivityFormat` raw value).
    public var sourceFormat: String
    /// Lowercase hex SHA-256 of the file: the same file is recorded once per owner.
    public var contentHash: String
    /// The whole run's figures (default RunnectKit `StatsOptions`, at JSON resolution).
    public var stats: ActivityStats
    /// The watch's own timer total, when the file carries one (FIT, TCX).
    public var deviceTimerSeconds: Double?
    /// The time from passing the course's start to passing its finish, interpolated along the run.
    public var courseTimeSeconds: Double
    /// The course's length (geodesic).
    public var courseDistanceMeters: Double
    /// The share of the course's length that lay within the match distance of the run (0–1).
    public var matchCoverage: Double
    /// When the record was stored.
    public var createdAt: Date

    /// Course time per kilometre of the course; `nil` for a course shorter than RunnectKit's
    /// `Pace.minimumMeters` (10 m) or a course time that is not positive, by RunnectKit's one
    /// pace rule (`Pace.secondsPerKilometer(seconds:meters:)`).
    public var coursePaceSecondsPerKilometer: Double? {
        Pace.secondsPerKilometer(seconds: courseTimeSeconds, meters: courseDistanceMeters)
    }

    /// A record as stored.
    public init(
        id: Int64, owner: String, title: String, courseID: Int64, courseTitle: String?, isCourseDeleted: Bool = false,
        sourceFormat: String, contentHash: String, stats: ActivityStats, deviceTimerSeconds: Double?,
        courseTimeSeconds: Double, courseDistanceMeters: Double, matchCoverage: Double, createdAt: Date
    ) {
        self.id = id
        self.owner = owner
        self.title = title
        self.courseID = courseID
        self.courseTitle = courseTitle
        self.isCourseDeleted = isCourseDeleted
        self.sourceFormat = sourceFormat
        self.contentHash = contentHash
        self.stats = stats
        self.deviceTimerSeconds = deviceTimerSeconds
        self.courseTimeSeconds = courseTimeSeconds
        self.courseDistanceMeters = courseDistanceMeters
        self.matchCoverage = matchCoverage
        self.createdAt = createdAt
    }
}
