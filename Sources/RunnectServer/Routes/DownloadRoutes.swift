import Foundation
import Hummingbird
import RunnectKit
import RunnectStore

/// Downloads (beyond the app's server): `GET /api/course/{courseId}/file?format=…`, any course
/// the caller may read as GPX, TCX, FIT, GeoJSON or its SVG preview, and
/// `GET /api/record/{recordId}/file?format=gpx|tcx|fit`, a record's own run. Written as
/// `runnect export` writes them (``CourseFile``), named for the course in `Content-Disposition`,
/// with an ETag that `If-None-Match` checks before the path is read (304), and kept a while in a
/// ``DownloadCache``. A course download without the API's headers is a visitor's (a browser's
/// link, a watch's app): shared courses only. A course or record the caller may not read is 404.
struct DownloadRoutes: Sendable {
    let services: ServerServices
    let cache: DownloadCache

    func add(to router: Router<RunnectRequestContext>) {
        router.get("api/course/:courseId/file") { request, context in
            let (_, store) = try await services.caller(of: request, context: context, visitors: true, headerless: true)
            let id = try PathID.value(context, "courseId")
            let format = try Self.format(of: request, among: CourseFile.Format.allCases)
            let course = try await Self.found { try await store.course(id: id) }
            let source = try CourseFile.source(course: course, format: format)
            return try await answer(request, source: source, fallbackName: "course-\(id)") {
                let activity = try await Self.found { try await store.activity(id: id) }
                return try CourseFile.course(course, activity: activity, format: format).bytes
            }
        }
        router.get("api/record/:recordId/file") { request, context in
            let (_, store) = try await services.runner(of: request, context: context)
            let id = try PathID.value(context, "recordId")
            let format = try Self.format(of: request, among: CourseFile.Format.runFormats)
            let record = try await Self.found { try await store.record(id: id) }
            let source = CourseFile.source(record: record, format: format)
            return try await answer(request, source: source, fallbackName: "record-\(id)") {
                let activity = try await Self.found { try await store.recordActivity(id: id) }
                guard activity.hasTrackPoints else {
                    throw APIError.notFound(
                        "record \(id) was reported by the app without a track: there is no run to download")
                }
                return try CourseFile.run(record, activity: activity, format: format).bytes
            }
        }
    }

    /// 304 when `If-None-Match` names the file's ETag; else the file, kept or written by `write`.
    private func answer(
        _ request: Request, source: CourseFile.Source, fallbackName: String,
        write: () async throws -> [UInt8]
    ) async throws -> Response {
        let etag = source.etag
        var headers: HTTPFields = [
            .eTag: etag, .cacheControl: "private, no-cache", .xContentTypeOptions: "nosniff",
        ]
        if EntityTag.isNamed(etag, byIfNoneMatch: request.headers[values: .ifNoneMatch]) {
            return Response(status: .notModified, headers: headers)
        }
        let bytes: [UInt8]
        if let kept = cache.bytes(etag) {
            bytes = kept
        } else {
            do {
                bytes = try await write()
            } catch let error as WriteError {
                throw APIError(
                    .unprocessableContent, "\(fallbackName) cannot be written as \(source.format.rawValue): \(error)")
            }
            cache.keep(bytes, as: etag)
        }
        headers[.contentType] = source.format.contentType
        headers[.contentDisposition] = CourseFile.disposition(
            title: source.title, fallback: fallbackName, format: source.format)
        // An SVG opened from here runs nothing and loads nothing.
        headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// `?format=`, one of `allowed`; 400 otherwise.
    static func format(of request: Request, among allowed: [CourseFile.Format]) throws -> CourseFile.Format {
        let names = allowed.map(\.rawValue).joined(separator: ", ")
        guard let text = request.uri.queryParameters.get("format") else {
            throw APIError.badRequest("format is missing: one of \(names)")
        }
        guard let format = CourseFile.Format(rawValue: text.lowercased()), allowed.contains(format) else {
            throw APIError.badRequest("format must be one of \(names), not \"\(text.prefix(20))\"")
        }
        return format
    }

    /// What `read` reads; a course or record the caller cannot see is 404 here (a download is not
    /// one of the app's calls, whose not-found is 400).
    static func found<T>(_ read: () async throws -> T) async throws -> T {
        do {
            return try await read()
        } catch let error as StoreError {
            switch error {
            case .notFound(let id): throw APIError.notFound("no course \(id) you may read")
            case .recordNotFound(let id): throw APIError.notFound("no record \(id) among your records")
            default: throw error
            }
        }
    }
}

extension Activity {
    /// Whether it holds a point to write (a record the app reported holds none).
    fileprivate var hasTrackPoints: Bool {
        courseSegments.contains { !$0.isEmpty }
    }
}
