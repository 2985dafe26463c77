import Foundation
import Hummingbird
import RunnectStore

/// Scraps (API §3.6): the toggle and the runner's scrapped courses; and stamps (§3.7).
struct ScrapRoutes: Sendable {
    struct ToggleBody: Decodable, Sendable {
        var publicCourseId: Int64
        var scrapTF: Bool
    }
    struct Toggled: Encodable, Sendable {
        var publicCourseId: Int64
        var scrapCount: Int
        var scrapTF: Bool
    }
    struct Scraps: Encodable, Sendable {
        struct User: Encodable, Sendable { var userId: Int64 }
        struct Item: Encodable, Sendable {
            var id: Int64
            var publicCourseId: Int64
            var courseId: Int64
            var title: String
            var image: String
            var departure: DepartureView
        }
        var user: User
        var scraps: [Item]
    }
    struct Stamps: Encodable, Sendable {
        struct User: Encodable, Sendable { var id: Int64 }
        struct Stamp: Encodable, Sendable { var id: String }
        var user: User
        var stamps: [Stamp]
    }

    let services: ServerServices

    func add(to router: Router<RunnectRequestContext>) {
        router.post("api/scrap") { request, context in
            let (_, store) = try await services.runner(of: request, context: context)
            let body = try await JSONRequest.decode(ToggleBody.self, from: request)
            let id = body.publicCourseId
            let course = try await PublicCourseRoutes.sharedCourse(id, store: store)
            // A toggle to what already is changes nothing (the app's server flips a flag in place).
            // Two toggles of the same runner at once (two taps, two devices): the one that finds the
            // course already as asked changes nothing either.
            let now: Course
            do {
                switch (body.scrapTF, course.isScrapped) {
                case (true, false): now = try await store.scrap(id: id)
                case (false, true): now = try await store.unscrap(id: id)
                default: now = course
                }
            } catch StoreError.alreadyScrapped, StoreError.notScrapped {
                now = try await store.course(id: id)
            }
            return APIResponse(
                .ok, status: body.scrapTF ? 201 : 200, message: body.scrapTF ? "코스 스크랩 성공" : "코스 스크랩 취소 성공",
                data: Toggled(publicCourseId: id, scrapCount: now.scrapCount, scrapTF: now.isScrapped))
        }
        router.get("api/scrap/user") { request, context in
            let (id, store) = try await services.runner(of: request, context: context)
            let courses = try await store.list(.scrapped, page: Page(limit: CourseRoutes.maximumListed))
            let views = try await CourseViews.load(
                courses.map(\.id), store: store, services: services, request: request)
            return APIResponse(
                message: "스크랩 코스 조회에 성공했습니다.",
                data: Scraps(
                    user: .init(userId: id),
                    scraps: courses.map { course in
                        .init(
                            id: course.id, publicCourseId: course.id, courseId: course.id, title: course.title,
                            image: views.image(course.id),
                            departure: DepartureView(departure: course.departure, shape: .short))
                    }))
        }
        router.get("api/stamp/user") { request, context in
            let (id, _) = try await services.runner(of: request, context: context)
            let runner = try await services.store.runner(id: id)
            return APIResponse(
                message: "스탬프 조회에 성공했습니다.",
                data: Stamps(user: .init(id: id), stamps: runner.stamps.map { .init(id: $0) }))
        }
    }
}
