import Foundation
import Hummingbird
import RunnectStore

/// The runner's page, another runner's profile, the nickname, and withdrawal (API §3.2).
struct UserRoutes: Sendable {
    struct MyPage: Encodable, Sendable {
        struct User: Encodable, Sendable {
            var id: Int64
            var email: String
            var provider: String
            var nickname: String
            var latestStamp: String
            var level: Int
            var levelPercent: Int
        }
        var user: User
    }

    struct Profile: Encodable, Sendable {
        struct User: Encodable, Sendable {
            var userId: Int64
            var nickname: String
            var latestStamp: String
            var level: Int
            var levelPercent: Int
        }
        struct ProfileCourse: Encodable, Sendable {
            var publicCourseId: Int64
            var courseId: Int64
            var title: String
            var image: String
            var departure: DepartureView
            var scrapTF: Bool
        }
        var user: User
        var courses: [ProfileCourse]
    }

    struct NicknameBody: Decodable, Sendable {
        var nickname: String
    }

    struct NicknameChanged: Encodable, Sendable {
        struct User: Encodable, Sendable {
            var id: Int64
            var nickname: String
            var latestStamp: String
            var level: Int
            var levelPercent: Int
            var modifiedAt: String
        }
        var user: User
    }

    struct Withdrawn: Encodable, Sendable {
        var deletedUserId: Int64
    }

    /// The most courses a profile lists.
    static let profileCourses = 100

    let services: ServerServices

    func add(to router: Router<RunnectRequestContext>) {
        router.get("api/user") { request, context in
            let (id, _) = try await services.runner(of: request, context: context)
            let runner = try await services.store.runner(id: id)
            return APIResponse(
                message: "마이페이지 조회에 성공했습니다.",
                data: MyPage(
                    user: .init(
                        id: runner.id, email: runner.email ?? "", provider: runner.provider,
                        nickname: runner.displayName, latestStamp: runner.latestStamp, level: runner.level,
                        levelPercent: runner.levelPercent)))
        }
        router.get("api/user/:userId") { request, context in
            let (_, store) = try await services.runner(of: request, context: context)
            let id = try PathID.value(context, "userId")
            let runner = try await services.store.runner(id: id)
            guard !runner.isWithdrawn else { throw APIError.notFound("존재하지 않는 유저입니다 (runner #\(id) withdrew)") }
            let courses = try await store.list(.sharedBy(runner.name), page: Page(limit: Self.profileCourses))
            let views = try await CourseViews.load(
                courses.map(\.id), store: store, services: services, request: request)
            return APIResponse(
                message: "유저 프로필 조회에 성공했습니다.",
                data: Profile(
                    user: .init(
                        userId: runner.id, nickname: runner.displayName, latestStamp: runner.latestStamp,
                        level: runner.level, levelPercent: runner.levelPercent),
                    courses: courses.map { course in
                        .init(
                            publicCourseId: course.id, courseId: course.id, title: course.title,
                            image: views.image(course.id),
                            departure: DepartureView(departure: course.departure, shape: .full),
                            scrapTF: course.isScrapped)
                    }))
        }
        router.patch("api/user") { request, context in
            let (_, store) = try await services.runner(of: request, context: context)
            let body = try await JSONRequest.decode(NicknameBody.self, from: request)
            let runner = try await store.setNickname(body.nickname)
            return APIResponse(
                message: "닉네임 변경에 성공했습니다.",
                data: NicknameChanged(
                    user: .init(
                        id: runner.id, nickname: runner.displayName, latestStamp: runner.latestStamp,
                        level: runner.level, levelPercent: runner.levelPercent,
                        modifiedAt: AppTime.courseDate(runner.modifiedAt, timeZone: services.configuration.timeZone))))
        }
        router.delete("api/user") { request, context in
            let (_, store) = try await services.runner(of: request, context: context)
            let withdrawal = try await store.withdraw()
            services.authenticator.known.forget(withdrawal.runnerID)
            services.images.remove(withdrawal.images)
            return APIResponse(message: "회원 탈퇴에 성공했습니다.", data: Withdrawn(deletedUserId: withdrawal.runnerID))
        }
    }
}

/// A numeric id in a route's path: a positive whole number, else 400 naming the parameter.
enum PathID {
    static func value(_ context: RunnectRequestContext, _ name: String) throws -> Int64 {
        guard let text = context.parameters.get(name), let id = Int64(text), id > 0 else {
            throw APIError.badRequest("\(name) must be a positive whole number")
        }
        return id
    }
}
