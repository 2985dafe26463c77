import Foundation
import Hummingbird
import RunnectKit
import RunnectStore

/// `GET /api/public-course/near?lat=&lon=&within=&pageNo=`: shared courses whose path passes
/// within `within` kilometres (default 5, as `runnect nearby`) of a point, closest first, 10 a
/// page with `isEnd`, each as the feed shows it plus `distanceMeters`, the geodesic distance on
/// WGS84 from the point to the closest point of the course's path (beyond the app's server).
struct NearbyRoutes: Sendable {
    /// The feed's item with `distanceMeters` beside its keys.
    struct Item: Encodable, Sendable {
        var course: PublicCourseItem
        var distanceMeters: Double

        enum CodingKeys: String, CodingKey { case distanceMeters }

        func encode(to encoder: any Encoder) throws {
            try course.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(distanceMeters, forKey: .distanceMeters)
        }
    }
    struct Found: Encodable, Sendable {
        var isEnd: Bool
        var publicCourses: [Item]
    }

    let services: ServerServices

    func add(to router: Router<RunnectRequestContext>) {
        router.get("api/public-course/near") { request, context in
            let (_, store) = try await services.caller(of: request, context: context, visitors: true)
            let point = Coordinate(
                latitude: try Self.degrees(request, "lat", limit: 90),
                longitude: try Self.degrees(request, "lon", limit: 180))
            let kilometres = try Self.kilometres(request)
            let pageNo = try PublicCourseRoutes.pageNumber(request)
            let size = PublicCourseRoutes.pageSize
            let meters = kilometres * 1000
            // One more than the page, in the same search: whether there is a next page.
            let read = try await store.nearby(
                point, withinMeters: meters, page: Page(limit: size, number: pageNo), peek: 1)
            let found = read.prefix(size)
            let views = try await CourseViews.load(
                found.map(\.course.id), store: store, services: services, request: request)
            let items = found.map { nearby in
                Item(
                    course: views.publicItem(nearby.course),
                    distanceMeters: (nearby.distanceMeters * 1000).rounded() / 1000)
            }
            return APIResponse(
                message: "주변 코스 조회에 성공했습니다.", data: Found(isEnd: read.count <= size, publicCourses: items))
        }
    }

    /// A coordinate parameter: a finite number of degrees from −`limit` to `limit`; 400 otherwise.
    static func degrees(_ request: Request, _ name: String, limit: Double) throws -> Double {
        guard let text = request.uri.queryParameters.get(name) else {
            throw APIError.badRequest("\(name) is missing: /api/public-course/near?lat=37.51&lon=127.10")
        }
        guard let value = Double(text), value.isFinite, abs(value) <= limit else {
            throw APIError.badRequest(
                "\(name) must be degrees from -\(Int(limit)) to \(Int(limit)), not \"\(text.prefix(20))\"")
        }
        return value
    }

    /// `within`, kilometres: more than 0 and at most the store's 1,000; 5 when missing.
    static func kilometres(_ request: Request) throws -> Double {
        guard let text = request.uri.queryParameters.get("within") else {
            return CourseStore.defaultNearbyMeters / 1000
        }
        let maximum = CourseStore.maximumNearbyMeters / 1000
        guard let value = Double(text), value.isFinite, value > 0, value <= maximum else {
            throw APIError.badRequest(
                "within must be kilometres, more than 0 and at most \(Int(maximum)), not \"\(text.prefix(20))\"")
        }
        return value
    }
}
