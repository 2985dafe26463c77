import Foundation
import RunnectStore

extension APIError {
    /// The answer to a refusal of the store: what the runner asked for is not there or not
    /// theirs (400, the app's server's `NOT_FOUND_*`), already so (409), or not valid (400).
    /// The database out of reach (a restarting PostgreSQL, a SQLite file locked too long) is 503
    /// with `Retry-After`, its disk full 507: nothing was stored, and the same request later
    /// succeeds. `nil` for the store's other failures, which are the server's.
    init?(_ error: StoreError) {
        switch error {
        case .notFound(let id), .notShared(let id):
            self = .badRequest("유효하지 않은 코스 아이디 (course \(id) is not there, or not yours to see)")
        case .notOwner(let id, _):
            self = .badRequest("유효하지 않은 코스 아이디 (course \(id) is not yours)")
        case .recordNotFound(let id):
            self = .badRequest("record \(id) is not among your records")
        case .alreadyUploaded(let id):
            self = APIError(.conflict, "이미 업로드된 코스입니다 (course \(id) is shared already)")
        case .nicknameTaken(let nickname):
            self = APIError(.conflict, "중복된 닉네임입니다. (\"\(nickname)\" is taken; choose another)")
        case .runnerNotFound(let id):
            self = .notFound("존재하지 않는 유저입니다 (no runner #\(id))")
        case .notUploaded, .alreadyScrapped, .notScrapped, .invalidTitle, .emptyDescription, .invalidDeparture,
            .tooFewPoints, .tooManyPoints, .invalidCoordinate, .emptyActivity, .tooFewPositions, .invalidPage,
            .controlCharacter,
            .tooManyKeywords, .keywordTooLong, .invalidNickname, .courseHasRecords, .invalidNearbyPoint,
            .invalidNearbyDistance, .runDoesNotFollow, .invalidUser:
            self = .badRequest(error.description)
        case .duplicate, .duplicateRecord:
            self = APIError(.conflict, error.description)
        case .unavailable:
            self = .unavailable("the store does not answer now; try again in a few seconds")
        case .storageFull:
            self = APIError(.insufficientStorage507, "the server's disk is full; nothing was stored; try again later")
        default:
            return nil
        }
    }
}
