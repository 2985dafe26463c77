import Foundation
import Hummingbird
import RunnectKit
import RunnectStore

/// Shared courses (API §3.4): the feed by date or scraps, its page count, search, marathon
/// courses, a shared course's page, sharing one's own course, editing and un-sharing.
struct PublicCourseRoutes: Sendable {
    struct Feed: Encodable, Sendable {
        var ordering: String
        var totalPageSize: Int
        var isEnd: Bool
        var publicCourses: [PublicCourseItem]
    }
    struct PageCount: Encodable, Sendable { var totalPageCount: Int }
    struct Found: Encodable, Sendable { var publicCourses: [PublicCourseItem] }
    struct Marathon: Encodable, Sendable { var marathonPublicCourses: [PublicCourseItem] }
    struct Mine: Encodable, Sendable {
        struct User: Encodable, Sendable { var id: Int64 }
        var user: User
        var publicCourses: [PublicCourseItem]
    }
    struct Detail: Encodable, Sendable {
        struct User: Encodable, Sendable {
            var id: Int64
            var nickname: String
            var level: Int
            var image: String
            var isNowUser: Bool
        }
        struct Item: Encodable, Sendable {
            var id: Int64
            var courseId: Int64
            var scrap: Bool
            var scrapCount: Int
            var image: String
            var title: String
            var description: String
            var path: [[Double]]
            var distance: Double
            var departure: DepartureView
        }
        var user: User
        var publicCourse: Item
    }
    struct UploadBody: Decodable, Sendable {
        var courseId: Int64
        var title: String
        var description: String
    }
    struct Uploaded: Encodable, Sendable {
        struct Item: Encodable, Sendable {
            var id: Int64
            var createdAt: String
        }
        var publicCourse: Item
    }
    struct EditBody: Decodable, Sendable {
        var title: String
        var description: String
    }
    struct Edited: Encodable, Sendable {
        struct Item: Encodable, Sendable {
            var id: Int64
            var title: String
            var description: String
        }
        var publicCourse: Item
    }
    struct DeleteBody: Decodable, Sendable { var publicCourseIdList: [Int64] }
    struct Deleted: Encodable, Sendable { var deletedPublicCourseCount: Int }

    /// A feed page's courses, as the app's server.
    static let pageSize = 10
    /// The most courses a search answers (the app's server had no paging).
    static let searchLimit = 100
    /// The most characters of a search the server reads.
    static let maximumKeywordCharacters = 200
    /// The most description characters (the app's server's column).
    static let maximumDescription = 255

    let services: ServerServices

    func add(to router: Router<RunnectRequestContext>) {
        router.get("api/public-course") { request, context in
            let (_, store) = try await services.caller(of: request, context: context, visitors: true)
            let pageNo = try Self.pageNumber(request)
            let sortText = request.uri.queryParameters.get("sort") ?? ""
            let sort: CourseSort
            switch sortText {
            case "", "date": sort = .date
            case "scrap": sort = .scrap
            default: throw APIError.badRequest("sort must be date or scrap, not \"\(sortText.prefix(20))\"")
            }
            let order = try await services.feedPages.ids(sort, store: store)
            let pages = max(1, (order.count + Self.pageSize - 1) / Self.pageSize)
            let start = min(order.count, (pageNo - 1) * Self.pageSize)
            let (courses, images) = try await store.coursesWithImages(
                ids: Array(order[start..<min(order.count, start + Self.pageSize)]))
            let views = CourseViews(images: images, services: services, request: request)
            return APIResponse(
                message: "추천 코스 조회에 성공했습니다.",
                data: Feed(
                    ordering: sort == .scrap ? "scrap" : "date", totalPageSize: pages, isEnd: pageNo >= pages,
                    publicCourses: courses.map(views.publicItem)))
        }
        router.get("api/public-course/total-page-count") { request, context in
            let (_, store) = try await services.caller(of: request, context: context, visitors: true)
            let shared = try await services.feedPages.count(store: store)
            return APIResponse(
                message: "전체 페이지 수 조회에 성공했습니다.",
                data: PageCount(totalPageCount: max(1, (shared + Self.pageSize - 1) / Self.pageSize)))
        }
        router.get("api/public-course/search") { request, context in
            let (_, store) = try await services.caller(of: request, context: context, visitors: true)
            guard let keyword = request.uri.queryParameters.get("keyword") else {
                throw APIError.badRequest("keyword is missing: /api/public-course/search?keyword=…")
            }
            let courses = try await search(keyword, store: store)
            let views = try await CourseViews.load(
                courses.map(\.id), store: store, services: services, request: request)
            return APIResponse(message: "코스 검색에 성공했습니다.", data: Found(publicCourses: courses.map(views.publicItem)))
        }
        router.get("api/public-course/marathon") { request, context in
            let (_, store) = try await services.caller(of: request, context: context, visitors: true)
            let ids = services.configuration.marathonCourses
            let courses = try await sharedCourses(ids, store: store)
            let views = try await CourseViews.load(
                courses.map(\.id), store: store, services: services, request: request)
            return APIResponse(
                message: "마라톤 코스 조회에 성공했습니다.", data: Marathon(marathonPublicCourses: courses.map(views.publicItem)))
        }
        router.post("api/public-course") { request, context in
            let (_, store) = try await services.runner(of: request, context: context)
            let body = try await JSONRequest.decode(UploadBody.self, from: request)
            try Self.checkDescription(body.description)
            let course = try await store.upload(id: body.courseId, title: body.title, description: body.description)
            services.feedPages.invalidate()
            return APIResponse(
                .created, message: "업로드 코스 생성에 성공했습니다.",
                data: Uploaded(
                    publicCourse: .init(
                        id: course.id,
                        createdAt: AppTime.courseDate(
                            course.uploadedAt ?? Date(), timeZone: services.configuration.timeZone))))
        }
        router.get("api/public-course/detail/:publicCourseId") { request, context in
            let (caller, store) = try await services.caller(of: request, context: context, visitors: true)
            let id = try PathID.value(context, "publicCourseId")
            let (course, activity, image) = try await Self.sharedCourseWithActivity(id, store: store)
            let owner = try await services.store.runners(named: [course.owner])[course.owner]
            let views = CourseViews(images: image.map { [id: $0] } ?? [:], services: services, request: request)
            let user: Detail.User
            if let owner, !owner.isWithdrawn {
                user = .init(
                    id: owner.id, nickname: owner.displayName, level: owner.level, image: owner.latestStamp,
                    isNowUser: owner.name == caller.name)
            } else {
                user = .init(id: -1, nickname: "알 수 없음", level: -1, image: "DELETED_USER", isNowUser: false)
            }
            return APIResponse(
                message: "업로드 코스 상세 조회에 성공했습니다.",
                data: Detail(
                    user: user,
                    publicCourse: .init(
                        id: course.id, courseId: course.id, scrap: course.isScrapped, scrapCount: course.scrapCount,
                        image: views.image(id), title: course.title, description: course.description ?? "",
                        path: CourseRoutes.path(activity),
                        distance: CourseViews.kilometres(course.stats.distanceMeters),
                        departure: DepartureView(departure: course.departure, shape: .shared))))
        }
        router.get("api/public-course/user") { request, context in
            let (id, store) = try await services.runner(of: request, context: context)
            let courses = try await store.list(.mine(uploaded: true), page: Page(limit: CourseRoutes.maximumListed))
            let views = try await CourseViews.load(
                courses.map(\.id), store: store, services: services, request: request)
            return APIResponse(
                message: "업로드한 코스 조회에 성공했습니다.",
                data: Mine(user: .init(id: id), publicCourses: courses.map(views.publicItem)))
        }
        router.patch("api/public-course/:publicCourseId") { request, context in
            let (caller, store) = try await services.runner(of: request, context: context)
            let id = try PathID.value(context, "publicCourseId")
            let body = try await JSONRequest.decode(EditBody.self, from: request)
            try Self.checkDescription(body.description)
            let course = try await Self.sharedCourse(id, store: store)
            guard course.owner == (try await services.store.runner(id: caller)).name else {
                throw APIError(.forbidden, "course \(id) is not yours to edit")
            }
            let edited = try await store.editShared(id: id, title: body.title, description: body.description)
            return APIResponse(
                message: "업로드 코스 수정에 성공했습니다.",
                data: Edited(publicCourse: .init(id: id, title: edited.title, description: edited.description ?? "")))
        }
        router.put("api/public-course") { request, context in
            let (caller, store) = try await services.runner(of: request, context: context)
            let body = try await JSONRequest.decode(DeleteBody.self, from: request)
            guard (1...CourseRoutes.maximumBulkIDs).contains(body.publicCourseIdList.count) else {
                throw APIError.badRequest("publicCourseIdList takes 1 to \(CourseRoutes.maximumBulkIDs) ids")
            }
            let name = try await services.store.runner(id: caller).name
            let ids = Array(Set(body.publicCourseIdList))
            for id in ids {
                let course = try await Self.sharedCourse(id, store: store)
                guard course.owner == name else { throw APIError(.forbidden, "course \(id) is not yours to un-share") }
            }
            try await store.unupload(ids: ids)
            services.feedPages.invalidate()
            return APIResponse(
                message: "업로드 코스 삭제에 성공했습니다.", data: Deleted(deletedPublicCourseCount: body.publicCourseIdList.count))
        }
    }

    /// The shared course `id` as the caller sees it; 400 (the app's server's
    /// `NOT_FOUND_PUBLIC_COURSE`) when it is not shared.
    static func sharedCourse(_ id: Int64, store: CourseStore) async throws -> Course {
        let course: Course
        do {
            course = try await store.course(id: id)
        } catch StoreError.notFound {
            throw notShared(id)
        }
        guard course.isUploaded else {
            throw notShared(id)
        }
        return course
    }

    /// ``sharedCourse(_:store:)`` with its activity and image, in one read.
    static func sharedCourseWithActivity(
        _ id: Int64, store: CourseStore
    ) async throws -> (course: Course, activity: Activity, image: String?) {
        let found: (course: Course, activity: Activity, image: String?)
        do {
            found = try await store.courseWithActivity(id: id)
        } catch StoreError.notFound {
            throw notShared(id)
        }
        guard found.course.isUploaded else {
            throw notShared(id)
        }
        return found
    }

    /// The app's server's `NOT_FOUND_PUBLIC_COURSE`.
    static func notShared(_ id: Int64) -> APIError {
        .badRequest("유효하지 않은 업로드 코스 아이디 (public course \(id) is not there)")
    }

    /// The shared courses among `ids`, in order (the marathon list).
    private func sharedCourses(_ ids: [Int64], store: CourseStore) async throws -> [Course] {
        var courses: [Course] = []
        for id in ids {
            if let course = try? await Self.sharedCourse(id, store: store) { courses.append(course) }
        }
        return courses
    }

    /// Search as the app sends it: any text, never refused; the first keywords the store takes,
    /// each cut to its length; newest first.
    private func search(_ keyword: String, store: CourseStore) async throws -> [Course] {
        guard keyword.count <= Self.maximumKeywordCharacters else {
            throw APIError.badRequest("keyword takes at most \(Self.maximumKeywordCharacters) characters")
        }
        let words = keyword.split(whereSeparator: {
            $0.isWhitespace || $0.unicodeScalars.allSatisfy { $0.properties.generalCategory == .control }
        })
        .prefix(CourseStore.maximumKeywordCount).map { String($0.prefix(CourseStore.maximumKeywordLength)) }
        guard !words.isEmpty else { return [] }
        return try await store.search(
            keywords: words.joined(separator: " "), scope: .shared, sort: .date, page: Page(limit: Self.searchLimit))
    }

    /// The feed's `pageNo`: 1 when missing, else a whole number from 1.
    static func pageNumber(_ request: Request) throws -> Int {
        guard let text = request.uri.queryParameters.get("pageNo") else { return 1 }
        guard let number = Int(text), (1...1_000_000).contains(number) else {
            throw APIError.badRequest("pageNo must be a whole number from 1 to 1000000, not \"\(text.prefix(20))\"")
        }
        return number
    }

    static func checkDescription(_ description: String) throws {
        guard description.count <= maximumDescription else {
            throw APIError.badRequest(
                "description takes at most \(maximumDescription) characters, got \(description.count)")
        }
    }
}
