import Foundation

/// A runner's best record of a course, as ``StoreRunnerTransaction/rankingRows(course:)`` reads it.
package struct RankingRow: Sendable, Equatable {
    package var runnerID: Int64
    package var recordID: Int64
    package var seconds: Double
    package var courseMeters: Double
    package var marks: RecordMarks

    package init(runnerID: Int64, recordID: Int64, seconds: Double, courseMeters: Double, marks: RecordMarks) {
        self.runnerID = runnerID
        self.recordID = recordID
        self.seconds = seconds
        self.courseMeters = courseMeters
        self.marks = marks
    }
}

/// The primitives of runners as the app knows them (schema version 6 on SQLite, 18 on
/// PostgreSQL): who they are, how they sign in, what they earned, the images of courses, and
/// what the app adds to records. Those marked *server* are for the server itself (on PostgreSQL,
/// a server's role acting as no runner: the functions it is granted); the others act as the
/// transaction's runner.
package protocol StoreRunnerTransaction {
    /// The runners with these ids (withdrawn ones included), with their stamps; unknown ids left out.
    func runners(ids: [Int64]) async throws -> [Runner]
    /// The runners with these names, as ``runners(ids:)``.
    func runners(names: [String]) async throws -> [Runner]
    /// *Server*: the runner this sign-in identity belongs to.
    func runnerID(issuer: String, subject: String) async throws -> Int64?
    /// *Server*: makes a runner named `name` (or `r<id>` when `nil`, skipping ids whose name is
    /// taken) with this identity, if any; on PostgreSQL, with their role. Returns the id.
    func createRunner(name: String?, identity: SignInIdentity?, at date: Date) async throws -> Int64
    /// *Server*: the e-mail and provider of a sign-in.
    func setAccount(runner id: Int64, email: String?, provider: String) async throws
    /// *Server*: the SHA-256 (hex) of the runner's one valid refresh token.
    func refreshTokenHash(runner id: Int64) async throws -> String?
    /// *Server*: replaces it (`nil`: none is valid).
    func setRefreshTokenHash(runner id: Int64, _ hash: String?) async throws
    /// The runner going by `nickname`: as their nickname, or as their name while they have none.
    func nicknameHolder(_ nickname: String) async throws -> Int64?
    /// Sets the transaction's runner's nickname.
    /// - Throws: ``StoreError/nicknameTaken(_:)`` when another runner holds it.
    func setNickname(_ nickname: String, at date: Date) async throws
    /// Marks the transaction's runner withdrawn, forgetting their e-mail, nickname, refresh token
    /// and sign-in identities (their rows were deleted before).
    func withdrawRunner(at date: Date) async throws
    /// Sets the file name of a course's map image (the transaction's runner's course).
    func setCourseImage(course id: Int64, image: String) async throws
    /// The map images of those of these courses the runner may read (their own and shared ones,
    /// and deleted ones they owned or hold a record of); those without left out.
    func courseImages(ids: [Int64]) async throws -> [Int64: String]
    /// How many courses the transaction's runner owns, and the map images of those that have one.
    func holdings() async throws -> (courses: Int, images: [String])
    /// *Server*: the stored path of any course, or of a course kept for records, whoever owns it:
    /// what a preview is drawn from (its URL names it by a code only the server can make).
    func previewGeometry(course id: Int64) async throws -> Data?
    /// *Server*: every runner's best record of a course (not withdrawn), fastest first (then by
    /// record id).
    func rankingRows(course id: Int64) async throws -> [RankingRow]
    /// What the app added to these records of the transaction's runner.
    func recordMarks(ids: [Int64]) async throws -> [Int64: RecordMarks]
}

/// What a record shows of the course it follows, live or kept after its owner deleted it.
public struct RecordCourse: Sendable, Equatable {
    /// Where the course starts; `nil` when it was not given.
    public var departure: Departure?
    /// The course's length.
    public var distanceMeters: Double
    /// Whether the course is shared now (a deleted one is not).
    public var isShared: Bool

    public init(departure: Departure?, distanceMeters: Double, isShared: Bool) {
        self.departure = departure
        self.distanceMeters = distanceMeters
        self.isShared = isShared
    }
}

/// What records show of their courses (a separate protocol: schema version 6/18, read as the
/// transaction's runner, who may read a deleted course's kept row while holding a record of it).
package protocol StoreRecordCourseTransaction {
    /// The courses with these ids as records show them: live ones the runner may read, and
    /// deleted ones kept for records.
    func recordCourses(ids: [Int64]) async throws -> [Int64: RecordCourse]
}
