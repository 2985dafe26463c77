import Foundation
import Hummingbird
import RunnectKit
import RunnectStore

/// The runner's drawn courses (API §3.3): draw one with its map image, list them, a course's
/// page with its path, rename, delete.
struct CourseRoutes: Sendable {
    struct DrawnCourse: Decodable, Sendable {
        struct Point: Decodable, Sendable {
            var latitude: Double
            var longitude: Double
        }
        var path: [Point]
        var title: String
        var distance: Double?
        var departureAddress: String
        var departureName: String?
    }

    struct Created: Encodable, Sendable {
        var id: Int64
        var createdAt: String
    }

    struct Courses: Encodable, Sendable {
        struct User: Encodable, Sendable { var id: Int64 }
        var user: User
        var courses: [PrivateCourseItem]
    }

    struct Detail: Encodable, Sendable {
        struct User: Encodable, Sendable { var userId: Int64 }
        struct Item: Encodable, Sendable {
            var id: Int64
            var createdAt: String
            var path: [[Double]]
            var distance: Double
            var image: String
            var title: String
            var departure: DepartureView
            var isNowUser: Bool
        }
        var user: User
        var course: Item
    }

    struct Renamed: Encodable, Sendable { var course: Renaming.Renamed }
    struct DeleteBody: Decodable, Sendable { var courseIdList: [Int64] }
    struct Deleted: Encodable, Sendable { var deletedCourseCount: Int }

    /// The most ids a bulk delete takes.
    static let maximumBulkIDs = 1000
    /// The most courses a list shows.
    static let maximumListed = 1000

    let services: ServerServices

    func add(to router: Router<RunnectRequestContext>) {
        router.post("api/course") { request, context in
            let (runner, store) = try await services.runner(of: request, context: context)
            let upload = try await MultipartUpload.read(request, folder: services.images)
            defer { try? FileManager.default.removeItem(atPath: upload.imageFile) }
            let body = try JSONRequest.decode(DrawnCourse.self, from: upload.data)
            let points = try Self.points(body.path)
            let departure = try Departure(address: body.departureAddress, name: body.departureName)
            let image: MapImage
            do {
                image = try MapImage(uploaded: try Data(contentsOf: URL(fileURLWithPath: upload.imageFile)))
            } catch let error as MapImageError {
                throw APIError.badRequest("the map image: \(error)")
            }
            try await services.holdings.reserve(
                runner: runner, bytes: Int64(image.bytes.count), store: store, images: services.images)
            let name: String
            do {
                name = try saved(image)
            } catch {
                services.holdings.release(runner: runner)
                throw error
            }
            do {
                let course = try await store.drawFromApp(
                    points: points, title: body.title, departure: departure, image: name)
                return APIResponse(
                    .created, message: "코스 생성에 성공했습니다.",
                    data: Created(
                        id: course.id,
                        createdAt: AppTime.courseDate(course.createdAt, timeZone: services.configuration.timeZone)))
            } catch {
                services.images.remove([name])
                services.holdings.release(runner: runner)
                throw error
            }
        }
        router.get("api/course/user") { request, context in
            try await list(request, context, uploaded: nil)
        }
        router.get("api/course/private/user") { request, context in
            try await list(request, context, uploaded: false)
        }
        router.get("api/course/detail/:courseId") { request, context in
            let (caller, store) = try await services.caller(of: request, context: context)
            let id = try PathID.value(context, "courseId")
            let course = try await store.course(id: id)
            let activity = try await store.activity(id: id)
            let owner = try await services.store.runners(named: [course.owner])[course.owner]
            let views = try await CourseViews.load([id], store: store, services: services, request: request)
            return APIResponse(
                message: "코스 상세 조회에 성공했습니다.",
                data: Detail(
                    user: .init(userId: owner.map { $0.isWithdrawn ? -1 : $0.id } ?? -1),
                    course: .init(
                        id: course.id, createdAt: views.courseDate(course.createdAt), path: Self.path(activity),
                        distance: CourseViews.kilometres(course.stats.distanceMeters), image: views.image(id),
                        title: course.title, departure: DepartureView(departure: course.departure, shape: .full),
                        isNowUser: course.owner == caller.name)))
        }
        router.patch("api/course/:courseId") { request, context in
            let (_, store) = try await services.runner(of: request, context: context)
            let id = try PathID.value(context, "courseId")
            let body = try await JSONRequest.decode(Renaming.Body.self, from: request)
            let course = try await store.rename(id: id, title: body.title)
            return APIResponse(
                message: "코스 제목 수정에 성공했습니다.", data: Renamed(course: .init(id: course.id, title: course.title)))
        }
        router.put("api/course") { request, context in
            let (runner, store) = try await services.runner(of: request, context: context)
            let body = try await JSONRequest.decode(DeleteBody.self, from: request)
            guard body.courseIdList.count <= Self.maximumBulkIDs else {
                throw APIError.badRequest("courseIdList takes at most \(Self.maximumBulkIDs) ids")
            }
            let ids = Array(Set(body.courseIdList))
            let images = try await store.images(courses: ids)
            try await store.delete(ids: ids, withRecords: true)
            services.holdings.release(runner: runner)
            services.feedPages.invalidate()
            // Images of courses other runners' records keep stay with those records.
            let kept = try await store.images(courses: ids)
            services.images.remove(images.filter { kept[$0.key] == nil }.map(\.value))
            return APIResponse(message: "코스 삭제에 성공했습니다.", data: Deleted(deletedCourseCount: body.courseIdList.count))
        }
    }

    private func list(
        _ request: Request, _ context: RunnectRequestContext, uploaded: Bool?
    ) async throws -> APIResponse<Courses> {
        let (id, store) = try await services.runner(of: request, context: context)
        let courses = try await store.list(
            .mine(uploaded: uploaded), sort: .date, page: Page(limit: Self.maximumListed))
        let views = try await CourseViews.load(courses.map(\.id), store: store, services: services, request: request)
        return APIResponse(
            message: "코스 조회에 성공했습니다.", data: Courses(user: .init(id: id), courses: courses.map(views.privateItem)))
    }

    /// Keeps the checked image, or says why the disk cannot.
    private func saved(_ image: MapImage) throws -> String {
        do {
            return try services.images.save(image)
        } catch {
            throw APIError(.insufficientStorage507, "the server cannot keep the image now; try again later")
        }
    }

    /// The drawn path's points, each checked.
    static func points(_ path: [DrawnCourse.Point]) throws -> [Coordinate] {
        guard path.count >= 2 else { throw APIError.badRequest("path needs at least 2 points, got \(path.count)") }
        guard path.count <= CourseStore.maximumDrawnPoints else {
            throw APIError.badRequest("path takes at most \(CourseStore.maximumDrawnPoints) points, got \(path.count)")
        }
        return try path.enumerated().map { index, point in
            let coordinate = Coordinate(latitude: point.latitude, longitude: point.longitude)
            guard coordinate.isValid else {
                throw APIError.badRequest(
                    "path[\(index)] is not a point on Earth (latitude −90…90, longitude −180…180)")
            }
            return coordinate
        }
    }

    /// A course's path as the app reads it: `[[lat, lng], …]`.
    static func path(_ activity: Activity) -> [[Double]] {
        activity.courseSegments.flatMap { $0 }.map { [$0.coordinate.latitude, $0.coordinate.longitude] }
    }
}
