import Foundation
import RunnectKit

/// What the course store refuses, with a message that says what to do about it.
///
/// Nothing is changed in the database when one of these is thrown. Errors of the files being read
/// (RunnectKit's `ReadError`) pass through ``CourseStore/importFile(path:title:description:departure:)``
/// unchanged, so that a caller can tell a file it could not open from a course it refused.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No course has this id.
    case notFound(Int64)
    /// Only the owner may rename, delete, upload or unupload a course.
    case notOwner(id: Int64, owner: String)
    /// The course is shared already; upload takes a private course.
    case alreadyUploaded(Int64)
    /// The course is private already; unupload takes a shared course.
    case notUploaded(Int64)
    /// Only shared courses can be scrapped.
    case notShared(Int64)
    /// The current user scrapped this course already.
    case alreadyScrapped(Int64)
    /// The current user has not scrapped this course.
    case notScrapped(Int64)
    /// A title must hold 1–40 characters once leading and trailing white space is trimmed.
    case invalidTitle(String)
    /// Uploading needs a description that is not blank.
    case emptyDescription
    /// A departure address needs at least `region city town`.
    case invalidDeparture(String)
    /// A drawn course needs at least two taps.
    case tooFewPoints(found: Int)
    /// A tap outside latitude −90…90 / longitude −180…180 (index from 0).
    case invalidCoordinate(index: Int, Coordinate)
    /// The activity holds no track or route point: there is no path to keep.
    case emptyActivity
    /// The activity's points lie at fewer than 2 distinct positions (one fix, or a watch that
    /// never moved): no path, so no course that an export, a match or a pace could use.
    /// `distinct` is 0 or 1, `points` the track or route points read.
    case tooFewPositions(distinct: Int, points: Int)
    /// The activity cannot be encoded for storage (a list or string beyond 2³² − 1 items or bytes).
    case cannotEncode(String)
    /// The page asked for: `limit` ≥ 1 and `number` ≥ 1.
    case invalidPage(limit: Int, number: Int)
    /// The same owner has imported the same content before (same SHA-256).
    case duplicate(existingID: Int64)
    /// The database file was written by a newer version of Runnect; it is left untouched.
    case newerSchema(found: Int, supported: Int)
    /// The file could not be opened as a course database.
    case cannotOpen(path: String, reason: String)
    /// No course database at this path, and the operation only opens existing ones (reading a
    /// store never makes one: a mistyped path is not a new empty store).
    case noStore(path: String)
    /// A new course database cannot be made at this path: its folder does not exist (a store is
    /// made in an existing folder, never in folders a mistyped path names).
    case noFolder(path: String, folder: String)
    /// The stored geometry of a course could not be decoded.
    case corruptGeometry(id: Int64, reason: String)
    /// The stored run of a record could not be decoded.
    case corruptRecord(id: Int64, reason: String)
    /// Typed text (a title, a description, a departure, a user name) holds a control character
    /// (see RunnectKit's `ControlCharacters`): ESC, BEL, CR, NUL, a bidirectional override, …;
    /// `position` counts characters from 1.
    case controlCharacter(field: String, scalar: Unicode.Scalar, position: Int)
    /// More distinct keywords than ``CourseStore/maximumKeywordCount``.
    case tooManyKeywords(found: Int, limit: Int)
    /// A keyword longer than ``CourseStore/maximumKeywordLength`` characters.
    case keywordTooLong(String, limit: Int)
    /// A user name must not be blank.
    case invalidUser(String)
    /// On PostgreSQL: the role that connected may not act as runner `user` (it is neither that
    /// runner nor a server's role that `user` is granted to).
    case cannotActAs(user: String, role: String)
    /// SQLite reported an error (disk full, database locked for longer than the busy timeout, …).
    case database(String)
    /// No record with this id among the current user's.
    case recordNotFound(Int64)
    /// The user recorded the same file before, as this record.
    case duplicateRecord(existingID: Int64)
    /// The run does not follow the course named for it (`--course`); the reason says how.
    case runDoesNotFollow(courseID: Int64, reason: String)
    /// The course has records of the current user: deleting it needs their consent.
    case courseHasRecords(id: Int64, count: Int)
    /// A near-me search needs a point with latitude −90…90 and longitude −180…180.
    case invalidNearbyPoint(Coordinate)
    /// A near-me search's distance must be positive and at most
    /// ``CourseStore/maximumNearbyMeters``.
    case invalidNearbyDistance(meters: Double, maximum: Double)
    /// A copy cannot store the source's `kind` ("course" or "record") `id` as it is: the
    /// destination holds another row under that id, or the same content under another id. The
    /// two stores are not copies of one another.
    case copyConflict(kind: String, id: Int64, reason: String)
    /// Another runner goes by this nickname (or name, while they have no nickname).
    case nicknameTaken(String)
    /// A nickname has 1–``Runner/maximumNicknameLength`` characters after trimming.
    case invalidNickname(String)
    /// A drawn course has more taps than the store takes.
    case tooManyPoints(found: Int, limit: Int)
    /// No runner has this id (or they withdrew).
    case runnerNotFound(Int64)
    /// The database cannot be reached now (the connection was lost and not regained in time,
    /// the server restarts, the file stayed locked): nothing was stored unless the message says
    /// it may have been. Worth trying again later.
    case unavailable(String)
    /// The disk holding the database is full: nothing of this change was stored.
    case storageFull(String)

    /// Whether the error was found before the operation wrote anything (a bulk import goes on
    /// without undoing the rest of its batch).
    var isRefusedBeforeWriting: Bool {
        switch self {
        case .duplicate, .duplicateRecord, .runDoesNotFollow, .notFound: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .notFound(let id):
            return "course #\(id) not found (see `runnect list`)"
        case .notOwner(let id, let owner):
            return "course #\(id) belongs to \(owner); only its owner can change it"
        case .alreadyUploaded(let id):
            return "course #\(id) is shared already; unupload it first to upload it again"
        case .notUploaded(let id):
            return "course #\(id) is not shared; there is nothing to unupload"
        case .notShared(let id):
            return "course #\(id) is private; only shared courses can be scrapped"
        case .alreadyScrapped(let id):
            return "course #\(id) is scrapped already; use unscrap to remove it"
        case .notScrapped(let id):
            return "course #\(id) is not in your scraps"
        case .invalidTitle(let title):
            let count = title.trimmingCharacters(in: .whitespacesAndNewlines).count
            return "a title needs 1–\(CourseStore.maximumTitleLength) characters, got \(count): \"\(title)\""
        case .emptyDescription:
            return "a shared course needs a description; pass a non-empty one"
        case .invalidDeparture(let address):
            return "departure \"\(address)\" needs at least region, city and town separated by spaces "
                + "(e.g. \"서울 송파구 잠실동 올림픽로 25\")"
        case .tooFewPoints(let found):
            return "a drawn course needs at least 2 points, got \(found)"
        case .invalidCoordinate(let index, let coordinate):
            return "point \(index + 1) (\(coordinate)) is outside latitude -90…90 / longitude -180…180"
        case .emptyActivity:
            return "the activity has no track or route points; there is no course to store"
        case .tooFewPositions(let distinct, let points):
            return
                "only \(distinct) distinct position\(distinct == 1 ? "" : "s") in \(points) point\(points == 1 ? "" : "s"); "
                + "a course needs at least 2 distinct positions to have a path"
        case .cannotEncode(let reason):
            return "the course cannot be stored: \(reason)"
        case .invalidPage(let limit, let number):
            return "page \(number) of \(limit) courses: both must be at least 1"
        case .duplicate(let existingID):
            return "this content was imported before as course #\(existingID)"
        case .newerSchema(let found, let supported):
            return "the database uses schema version \(found) but this runnect supports up to \(supported); "
                + "upgrade runnect (the file was not changed)"
        case .cannotOpen(let path, let reason):
            return "cannot open the course database \(path): \(reason)"
        case .noStore(let path):
            return "no course database at \(path); check the path, or import or draw a course to start one"
        case .noFolder(let path, let folder):
            return "cannot create the course database \(path): the folder \(folder) does not exist; "
                + "create it first or check the path"
        case .corruptGeometry(let id, let reason):
            return "the stored path of course #\(id) is damaged (\(reason)); delete and re-import it"
        case .corruptRecord(let id, let reason):
            return "the stored run of record:\(id) is damaged (\(reason)); delete it and import the file again"
        case .controlCharacter(let field, let scalar, let position):
            return
                "the \(field) holds a control character (\(ControlCharacters.name(scalar)) at character \(position)); "
                + "control characters are not allowed in it, type it without"
        case .tooManyKeywords(let found, let limit):
            return "\(found) keywords given; a search takes at most \(limit)"
        case .keywordTooLong(let word, let limit):
            return "keyword \"\(word.prefix(20))…\" has \(word.count) characters; a keyword takes at most \(limit)"
        case .invalidUser(let name):
            return "user name \"\(name)\" is blank; pass --user NAME or set RUNNECT_USER"
        case .cannotActAs(let user, let role):
            return "--user \(user): on PostgreSQL you act as the role you connect as (\(role)), or as a runner "
                + "when that role is a server's (a member of runnect_server); leave out --user or connect as \(user)"
        case .database(let message):
            return "database error: \(message)"
        case .unavailable(let message):
            return "the database is unavailable: \(message)"
        case .storageFull(let message):
            return "the database's disk is full (\(message)); nothing was stored: free some space and try again"
        case .recordNotFound(let id):
            return "record:\(id) not found among your records (see `runnect records`)"
        case .duplicateRecord(let existingID):
            return "this run was recorded before as record:\(existingID)"
        case .runDoesNotFollow(let courseID, let reason):
            return "the run does not follow course #\(courseID): \(reason)"
        case .courseHasRecords(let id, let count):
            return "course #\(id) has \(count) of your records; pass --with-records to delete them with it"
        case .invalidNearbyPoint(let point):
            return "the point \(point) is outside latitude -90…90 / longitude -180…180; give it as LAT,LON in degrees"
        case .invalidNearbyDistance(let meters, let maximum):
            return "a near-me distance must be more than 0 and at most \(maximum / 1000) km, got \(meters / 1000) km"
        case .copyConflict(let kind, let id, let reason):
            return
                "cannot copy \(kind) #\(id): \(reason); copy into an empty store or one copied from this source"
        case .nicknameTaken(let nickname):
            return "the nickname \"\(nickname)\" is taken; choose another"
        case .invalidNickname(let nickname):
            return "a nickname has 1–\(Runner.maximumNicknameLength) characters, got \(nickname.count)"
        case .tooManyPoints(let found, let limit):
            return "a drawn course takes at most \(limit) points, got \(found)"
        case .runnerNotFound(let id):
            return "no runner #\(id) (they may have withdrawn)"
        }
    }
}
