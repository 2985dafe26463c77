import Foundation
import Hummingbird
import RunnectKit
import RunnectStore

/// `POST /api/record/run`: a run from a watch file (GPX, TCX, FIT, or one of them gzipped),
/// stored as `runnect import` stores it: a record of the course it followed, found among the
/// runner's courses, scraps and shared courses (or the `courseId` given, refused when the run does
/// not follow it), else of a new private course made from the run; answered with the record and
/// the match (beyond the app's server).
struct WatchRunRoutes: Sendable {
    struct Uploaded: Encodable, Sendable {
        var record: Record
        var match: Match
    }
    /// The record, in the shape of the app's record list (`GET /api/record/user`), and the run's
    /// own figures.
    struct Record: Encodable, Sendable {
        var id: Int64
        var courseId: Int64
        /// The course's id when it is shared (the app's public-course id), else `null`.
        @Nullable var publicCourseId: Int64?
        var title: String
        var createdAt: String
        /// The course's length, km.
        var distance: Double
        /// The course time, `HH:MM:SS`.
        var time: String
        /// The course time per km, `HH:MM:SS`.
        var pace: String
        /// The format the run was read from (`gpx`, `tcx`, `fit`).
        var format: String
        /// The whole run: its length (m), elapsed and moving time (s), and the watch's own timer.
        var runDistanceMeters: Double
        @Nullable var elapsedSeconds: Double?
        @Nullable var movingSeconds: Double?
        @Nullable var deviceTimerSeconds: Double?
    }
    /// How the run came to the course.
    struct Match: Encodable, Sendable {
        var courseId: Int64
        var courseTitle: String
        /// No course the runner can see matched: the course was made from the run.
        var isNewCourse: Bool
        /// The share of the course's length within the match distance of the run (0–1).
        var coverage: Double
        /// The time from passing the course's start to passing its finish (s, and `HH:MM:SS`).
        var courseTimeSeconds: Double
        var courseTime: String
        var courseDistanceMeters: Double
        /// No earlier record of the runner on the course is faster.
        var isPersonalBest: Bool
        /// Always true here: the time was measured from the track (a time the app reports is not).
        var measured: Bool
    }

    /// The most bytes a gzipped watch file may inflate to (a day-long FIT file is a few MB).
    static let inflateLimit = 256 << 20

    let services: ServerServices

    func add(to router: Router<RunnectRequestContext>) {
        router.post("api/record/run") { request, context in
            let (runner, store) = try await services.runner(of: request, context: context)
            // The file streams to a temporary file and is read from there: memory grows with the
            // points kept, not with the file's text.
            let upload = services.images.temporaryFile()
            defer { try? FileManager.default.removeItem(atPath: upload) }
            let form = try await MultipartForm.read(
                request,
                rules: [
                    .init(
                        name: "file", limit: RunnectServer.maximumUploadBytes, destination: .file(upload),
                        tooLarge: "the watch file takes at most \(RunnectServer.maximumUploadBytes >> 20) MiB"),
                    .init(name: "courseId", limit: 32, destination: .memory, tooLarge: "courseId is a course id"),
                    .init(name: "title", limit: 1024, destination: .memory, tooLarge: "title takes 1–40 characters"),
                ],
                what: "a run is sent as multipart/form-data with the part file (GPX, TCX, FIT or gzipped)")
            guard let file = form.parts["file"] else {
                throw APIError.badRequest(
                    "요청값이 입력되지 않았습니다. (the part file, the watch's GPX, TCX or FIT file, is missing)")
            }
            let link = try Self.link(form.parts["courseId"])
            let title = form.parts["title"].map { String(decoding: $0.bytes, as: UTF8.self) }
            // The name the client gave, for messages: its last component, controls escaped, short.
            let name =
                file.fileName.map { ControlCharacters.escaped(($0 as NSString).lastPathComponent).prefix(100) }
                .map(String.init) ?? "the file"
            let source: CourseSource
            do {
                source = try CourseSource(path: upload, named: file.fileName, inflateLimit: Self.inflateLimit)
            } catch let error as ReadError {
                throw APIError.badRequest("\(name): \(error)")
            }
            let draft = try CourseDraft(source: source, title: title, matching: RunMatching(link: link))
            guard draft.isRun else {
                throw APIError.badRequest(
                    "\(name): not a run (a time at every track point, the times advancing); "
                        + "a planned course is drawn or imported as a course")
            }
            try await services.holdings.reserve(runner: runner, bytes: 0, store: store, images: services.images)
            let recorded: RecordedRun
            do {
                guard case .record(let run) = try await store.store([draft])[0].get() else {
                    throw APIError(.internalServerError, "the run was stored as a course")
                }
                recorded = run
            } catch {
                services.holdings.release(runner: runner)
                throw error
            }
            if !recorded.isNewCourse { services.holdings.release(runner: runner) }
            return APIResponse(
                .created, message: "기록 생성에 성공했습니다.",
                data: Self.uploaded(recorded, timeZone: services.configuration.timeZone))
        }
    }

    /// `courseId`: the course the record goes to, refused when the run does not follow it;
    /// without it, the best match.
    static func link(_ part: MultipartForm.Part?) throws -> RunMatching.Link {
        guard let part else { return .bestMatch }
        let text = String(decoding: part.bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        guard let id = Int64(text), id > 0 else {
            throw APIError.badRequest(
                "courseId must be a course id (a positive whole number), not \"\(text.prefix(20))\"")
        }
        return .course(id)
    }

    static func uploaded(_ run: RecordedRun, timeZone: TimeZone) -> Uploaded {
        let record = run.record
        let stats = record.stats
        return Uploaded(
            record: Record(
                id: record.id, courseId: record.courseID, publicCourseId: run.course.isUploaded ? record.courseID : nil,
                title: record.title, createdAt: AppTime.recordDate(record.createdAt, timeZone: timeZone),
                distance: CourseViews.kilometres(record.courseDistanceMeters),
                time: AppTime.text(seconds: record.courseTimeSeconds),
                pace: AppTime.text(seconds: record.coursePaceSecondsPerKilometer ?? 0),
                format: String(record.sourceFormat.prefix { $0 != "-" }), runDistanceMeters: stats.distanceMeters,
                elapsedSeconds: stats.elapsedTimeSeconds, movingSeconds: stats.movingTimeSeconds,
                deviceTimerSeconds: record.deviceTimerSeconds),
            match: Match(
                courseId: run.course.id, courseTitle: run.course.title, isNewCourse: run.isNewCourse,
                coverage: record.matchCoverage, courseTimeSeconds: record.courseTimeSeconds,
                courseTime: AppTime.text(seconds: record.courseTimeSeconds),
                courseDistanceMeters: record.courseDistanceMeters, isPersonalBest: run.isPersonalBest, measured: true))
    }
}
