import Foundation

/// A runner as the Runnect app knows them: a numeric id (the app's `userId`), the fixed name the
/// store's rows carry (a login role on PostgreSQL), a nickname others see, and the stamps earned.
///
/// Every name that owns, scraps or records anything has a runner (the store makes one the first
/// time); ``CourseStore/signIn(_:)`` makes one for an app account.
public struct Runner: Codable, Equatable, Sendable, Identifiable {
    /// The most characters a nickname has (the app's server's column).
    public static let maximumNicknameLength = 14

    /// Assigned by the store, increasing, never reused.
    public var id: Int64
    /// The name the store's rows carry: `r<id>` for a runner who signed up from the app, the
    /// CLI's user name otherwise. Never changes.
    public var name: String
    /// The nickname chosen (unique); `nil` while there is none (``displayName`` is then the name).
    public var nickname: String?
    /// The app account's e-mail, when its provider gave one.
    public var email: String?
    /// Where the account comes from: `KAKAO`, `APPLE`, `GOOGLE`, or `CLI` for a name of the CLI.
    public var provider: String
    /// When the runner was made, and when their nickname last changed.
    public var createdAt: Date
    public var modifiedAt: Date
    /// The stamps earned (`c1` … `r3`), in the order earned.
    public var stamps: [String]
    /// Whether the runner withdrew (their shared courses stay, shown without them).
    public var isWithdrawn: Bool

    public init(
        id: Int64, name: String, nickname: String?, email: String?, provider: String, createdAt: Date,
        modifiedAt: Date, stamps: [String], isWithdrawn: Bool = false
    ) {
        self.id = id
        self.name = name
        self.nickname = nickname
        self.email = email
        self.provider = provider
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
        self.stamps = stamps
        self.isWithdrawn = isWithdrawn
    }

    /// What others see: the nickname, or the name while there is none.
    public var displayName: String { nickname ?? name }

    /// The app's level, 1–4: one more for every 4 stamps (its `UserStampService`).
    public var level: Int { min(stamps.count / 4, 3) + 1 }

    /// How far to the next level, in quarters: 0, 25, 50 or 75 (at level 4 with all 12, 0).
    public var levelPercent: Int { (stamps.count % 4) * 25 }

    /// The stamp most recently earned, or `CSPR0` (the app's default avatar) before any.
    public var latestStamp: String { stamps.last ?? "CSPR0" }
}

/// Who signs in: an identity an ID token or Kakao vouched for, never an e-mail.
public struct SignInIdentity: Sendable, Equatable {
    /// The OpenID Connect issuer (`https://appleid.apple.com`), or `kakao` for a Kakao user id.
    public var issuer: String
    /// The issuer's id of the person (`sub`, or Kakao's user id).
    public var subject: String
    /// `APPLE`, `GOOGLE` or `KAKAO`.
    public var provider: String
    /// The e-mail the provider gave, shown to the runner on their page only.
    public var email: String?

    public init(issuer: String, subject: String, provider: String, email: String?) {
        self.issuer = issuer
        self.subject = subject
        self.provider = provider
        self.email = email
    }
}

/// A runner's best time on a course, as the ranking lists it.
public struct RankingEntry: Sendable, Equatable {
    /// 1 for the fastest; runners are ranked by their best course time, then by record id.
    public var rank: Int
    public var runner: Runner
    public var recordID: Int64
    /// The course time, in seconds.
    public var seconds: Double
    /// Seconds per kilometre: as the app reported it, or the course time over the course's length.
    public var paceSecondsPerKilometer: Double
    /// Whether the store measured the time from a track (`false`: a time the app reported).
    public var isMeasured: Bool

    public init(
        rank: Int, runner: Runner, recordID: Int64, seconds: Double, paceSecondsPerKilometer: Double,
        isMeasured: Bool
    ) {
        self.rank = rank
        self.runner = runner
        self.recordID = recordID
        self.seconds = seconds
        self.paceSecondsPerKilometer = paceSecondsPerKilometer
        self.isMeasured = isMeasured
    }
}

/// What the app adds to a record: whether it reported the time (no track), the pace it
/// reported, and whether it was posted from the course's shared page.
public struct RecordMarks: Sendable, Equatable {
    public var isReported: Bool
    public var reportedPaceSeconds: Double?
    public var isFromSharedPage: Bool

    public init(isReported: Bool, reportedPaceSeconds: Double?, isFromSharedPage: Bool) {
        self.isReported = isReported
        self.reportedPaceSeconds = reportedPaceSeconds
        self.isFromSharedPage = isFromSharedPage
    }
}
