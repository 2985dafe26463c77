import Foundation
import Hummingbird
import RunnectStore

/// A shared course's ranking (API §8): every runner's best time, measured from a track or
/// reported by the app, and the caller's own place.
struct RankingRoutes: Sendable {
    struct Entry: Encodable, Sendable {
        var rank: Int
        var userId: Int64
        var nickname: String
        var recordId: Int64
        var time: String
        var pace: String
        var measured: Bool
    }
    struct Ranking: Encodable, Sendable {
        var totalCount: Int
        var entries: [Entry]
    }
    struct Mine: Encodable, Sendable {
        var hasRecord: Bool
        var rank: Int?
        var userId: Int64
        var nickname: String?
        var recordId: Int64?
        var time: String?
        var pace: String?
        var measured: Bool?
    }

    let services: ServerServices

    func add(to router: Router<RunnectRequestContext>) {
        router.get("api/course/:courseId/ranking") { request, context in
            let (_, store) = try await services.runner(of: request, context: context)
            let id = try PathID.value(context, "courseId")
            var limit = 20
            if let text = request.uri.queryParameters.get("limit") {
                guard let value = Int(text), (1...100).contains(value) else {
                    throw APIError.badRequest("limit must be a whole number from 1 to 100")
                }
                limit = value
            }
            _ = try await PublicCourseRoutes.sharedCourse(id, store: store)
            let entries = try await services.store.ranking(course: id)
            return APIResponse(
                message: "랭킹 조회에 성공했습니다.",
                data: Ranking(totalCount: entries.count, entries: entries.prefix(limit).map(Self.entry)))
        }
        router.get("api/course/:courseId/ranking/me") { request, context in
            let (runnerID, store) = try await services.runner(of: request, context: context)
            let id = try PathID.value(context, "courseId")
            _ = try await PublicCourseRoutes.sharedCourse(id, store: store)
            let entries = try await services.store.ranking(course: id)
            guard let mine = entries.first(where: { $0.runner.id == runnerID }) else {
                return APIResponse(message: "랭킹 조회에 성공했습니다.", data: Mine(hasRecord: false, userId: runnerID))
            }
            let entry = Self.entry(mine)
            return APIResponse(
                message: "랭킹 조회에 성공했습니다.",
                data: Mine(
                    hasRecord: true, rank: entry.rank, userId: runnerID, nickname: entry.nickname,
                    recordId: entry.recordId,
                    time: entry.time, pace: entry.pace, measured: entry.measured))
        }
    }

    static func entry(_ entry: RankingEntry) -> Entry {
        Entry(
            rank: entry.rank, userId: entry.runner.id, nickname: entry.runner.displayName, recordId: entry.recordID,
            time: AppTime.text(seconds: entry.seconds), pace: AppTime.text(seconds: entry.paceSecondsPerKilometer),
            measured: entry.isMeasured)
    }
}
