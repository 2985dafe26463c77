import Foundation
import Hummingbird
import RunnectStore

/// The runner's records (API §3.5): a run the app timed, the list, rename, delete.
struct RecordRoutes: Sendable {
    struct RunBody: Decodable, Sendable {
        var courseId: Int64?
        var publicCourseId: Int64?
        var title: String
        var time: String
        var pace: String
    }
    struct Created: Encodable, Sendable {
        struct Item: Encodable, Sendable {
            var id: Int64
            var createdAt: String
        }
        var record: Item
    }
    struct Records: Encodable, Sendable {
        struct User: Encodable, Sendable { var userId: Int64 }
        struct Item: Encodable, Sendable {
            var id: Int64
            var courseId: Int64
            var publicCourseId: Int64?
            var userId: Int64
            var title: String
            var image: String
            var createdAt: String
            var distance: Double
            var time: String
            var pace: String
            var departure: DepartureView

            enum CodingKeys: String, CodingKey {
                case id, courseId, publicCourseId, userId, title, image, createdAt, distance, time, pace, departure
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                try container.encode(courseId, forKey: .courseId)
                try container.encode(publicCourseId, forKey: .publicCourseId)
                try container.encode(userId, forKey: .userId)
                try container.encode(title, forKey: .title)
                try container.encode(image, forKey: .image)
                try container.encode(createdAt, forKey: .createdAt)
                try container.encode(distance, forKey: .distance)
                try container.encode(time, forKey: .time)
                try container.encode(pace, forKey: .pace)
                try container.encode(departure, forKey: .departure)
            }
        }
        var user: User
        var records: [Item]
    }
    struct Renamed: Encodable, Sendable { var record: Renaming.Renamed }
    struct DeleteBody: Decodable, Sendable { var recordIdList: [Int64] }
    struct Deleted: Encodable, Sendable { var deletedRecordIdCount: Int }

    /// The most records the list shows.
    static let maximumListed = 1000

    let services: ServerServices

    func add(to router: Router<RunnectRequestContext>) {
        router.post("api/record") { request, context in
            let (_, store) = try await services.runner(of: request, context: context)
            let body = try await JSONRequest.decode(RunBody.self, from: request)
            // As the app's server: a public course id, when given, names the course.
            guard let courseID = body.publicCourseId ?? body.courseId else {
                throw APIError.badRequest("요청값이 입력되지 않았습니다. (courseId is missing)")
            }
            if body.publicCourseId != nil { _ = try await PublicCourseRoutes.sharedCourse(courseID, store: store) }
            let course = try await store.course(id: courseID)
            let seconds: Int
            let pace: Int
            do {
                seconds = try AppTime.seconds(of: body.time, field: "time")
                pace = try AppTime.seconds(of: body.pace, field: "pace")
                try AppTimeError.checkPlausible(timeSeconds: seconds, courseMeters: course.stats.distanceMeters)
            } catch let error as AppTimeError {
                throw APIError.badRequest(error.description)
            }
            let record = try await store.reportRun(
                course: courseID, title: body.title, seconds: Double(seconds), paceSeconds: Double(pace),
                fromSharedPage: body.publicCourseId != nil)
            return APIResponse(
                .created, message: "기록 생성에 성공했습니다.",
                data: Created(
                    record: .init(
                        id: record.id,
                        createdAt: AppTime.recordDate(record.createdAt, timeZone: services.configuration.timeZone))))
        }
        router.get("api/record/user") { request, context in
            let (id, store) = try await services.runner(of: request, context: context)
            let records = try await store.records(sort: .date, page: Page(limit: Self.maximumListed))
            let courseIDs = Array(Set(records.map(\.courseID)))
            let courses = try await store.recordCourses(ids: courseIDs)
            let marks = try await store.recordMarks(ids: records.map(\.id))
            let views = try await CourseViews.load(courseIDs, store: store, services: services, request: request)
            let zone = services.configuration.timeZone
            return APIResponse(
                message: "기록 조회에 성공했습니다.",
                data: Records(
                    user: .init(userId: id),
                    records: records.map { record in
                        let course = courses[record.courseID]
                        let mark = marks[record.id]
                        let pace = mark?.reportedPaceSeconds ?? record.coursePaceSecondsPerKilometer ?? 0
                        return .init(
                            id: record.id, courseId: record.courseID,
                            publicCourseId: (mark?.isFromSharedPage ?? false) && (course?.isShared ?? false)
                                ? record.courseID : nil,
                            userId: id, title: record.title, image: views.image(record.courseID),
                            createdAt: AppTime.recordDate(record.createdAt, timeZone: zone),
                            distance: CourseViews.kilometres(course?.distanceMeters ?? record.courseDistanceMeters),
                            time: AppTime.text(seconds: record.courseTimeSeconds), pace: AppTime.text(seconds: pace),
                            departure: DepartureView(departure: course?.departure, shape: .short))
                    }))
        }
        router.patch("api/record/:recordId") { request, context in
            let (_, store) = try await services.runner(of: request, context: context)
            let id = try PathID.value(context, "recordId")
            let body = try await JSONRequest.decode(Renaming.Body.self, from: request)
            let record = try await store.renameRecord(id: id, title: body.title)
            return APIResponse(
                message: "기록 제목 수정에 성공했습니다.", data: Renamed(record: .init(id: record.id, title: record.title)))
        }
        router.put("api/record") { request, context in
            let (_, store) = try await services.runner(of: request, context: context)
            let body = try await JSONRequest.decode(DeleteBody.self, from: request)
            guard (1...CourseRoutes.maximumBulkIDs).contains(body.recordIdList.count) else {
                throw APIError.badRequest("recordIdList takes 1 to \(CourseRoutes.maximumBulkIDs) ids")
            }
            try await store.deleteRecords(ids: body.recordIdList)
            return APIResponse(message: "기록 삭제에 성공했습니다.", data: Deleted(deletedRecordIdCount: body.recordIdList.count))
        }
    }
}
