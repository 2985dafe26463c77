import Foundation
import Hummingbird
import RunnectStore

/// What the app's course lists and pages show of courses, for one request: each course's image
/// URL (its uploaded map, else its preview), its distance in kilometres, its dates.
struct CourseViews: Sendable {
    let baseURL: String
    let images: [Int64: String]
    let folder: ImageFolder
    let timeZone: TimeZone

    /// The views of these course ids, reading their uploaded images in one go, as the caller
    /// (`store`) may read them.
    static func load(
        _ ids: [Int64], store: CourseStore, services: ServerServices, request: Request
    ) async throws -> CourseViews {
        CourseViews(
            baseURL: services.baseURL(of: request), images: try await store.images(courses: ids),
            folder: services.images, timeZone: services.configuration.timeZone)
    }

    /// The absolute URL of course `id`'s image.
    func image(_ id: Int64) -> String {
        "\(baseURL)/images/\(images[id] ?? folder.previewName(course: id))"
    }

    /// Metres as the app's kilometres, to the metre.
    static func kilometres(_ meters: Double) -> Double {
        (meters / 1000 * 1000).rounded() / 1000
    }

    /// A course's creation time as the app's server writes it.
    func courseDate(_ date: Date) -> String { AppTime.courseDate(date, timeZone: timeZone) }

    /// A shared course as the feed, search, marathon and upload lists show it (§3.4).
    func publicItem(_ course: Course) -> PublicCourseItem {
        PublicCourseItem(
            id: course.id, courseId: course.id, title: course.title, image: image(course.id),
            scrap: course.isScrapped, scrapCount: course.scrapCount,
            distance: Self.kilometres(course.stats.distanceMeters),
            departure: DepartureView(departure: course.departure, shape: .short))
    }

    /// A runner's own course as their course lists show it (§3.3 #8, #9).
    func privateItem(_ course: Course) -> PrivateCourseItem {
        PrivateCourseItem(
            id: course.id, image: image(course.id), createdAt: courseDate(course.createdAt),
            distance: Self.kilometres(course.stats.distanceMeters), title: course.title,
            departure: DepartureView(departure: course.departure, shape: .full))
    }
}

/// A shared course in a list. Its public-course id is its course id: one id space while it is
/// shared (the app keeps both and never compares them).
extension CourseViews {
    /// The views of courses whose images were read with them (`CourseStore.coursesWithImages(ids:)`).
    init(images: [Int64: String], services: ServerServices, request: Request) {
        self.init(
            baseURL: services.baseURL(of: request), images: images, folder: services.images,
            timeZone: services.configuration.timeZone)
    }
}

struct PublicCourseItem: Encodable, Sendable {
    var id: Int64
    var courseId: Int64
    var title: String
    var image: String
    var scrap: Bool
    var scrapCount: Int
    var distance: Double
    var departure: DepartureView
}

/// One of the runner's own courses in a list.
struct PrivateCourseItem: Encodable, Sendable {
    var id: Int64
    var image: String
    var createdAt: String
    var distance: Double
    var title: String
    var departure: DepartureView
}
