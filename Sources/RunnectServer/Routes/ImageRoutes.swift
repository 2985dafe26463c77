import Foundation
import Hummingbird
import RunnectKit
import RunnectStore

/// `GET /images/{name}`: a course's uploaded map image, or its preview drawn from its path on
/// first asking and kept. No sign-in (the app's image loader sends no headers): names cannot be
/// guessed. Names never change what they show, so they are cached for good.
struct ImageRoutes: Sendable {
    let services: ServerServices

    func add(to router: Router<RunnectRequestContext>) {
        router.get("images/:name") { request, context in
            guard let name = context.parameters.get("name") else { throw APIError.notFound("no such image") }
            let folder = services.images
            if ImageFolder.isUploadName(name) {
                guard let data = FileManager.default.contents(atPath: folder.file(name)) else {
                    throw APIError.notFound("no such image")
                }
                return Self.response(Array(data), type: name.hasSuffix(".png") ? "image/png" : "image/jpeg")
            }
            guard let course = folder.previewCourse(name) else { throw APIError.notFound("no such image") }
            return Self.response(try await Self.preview(course: course, services: services), type: "image/png")
        }
    }

    /// Course `id`'s preview (a PNG of its path): kept in the images folder, else drawn and kept.
    /// - Throws: 404 when the course has no path to draw.
    static func preview(course id: Int64, services: ServerServices) async throws -> [UInt8] {
        let folder = services.images
        let name = folder.previewName(course: id)
        if let data = FileManager.default.contents(atPath: folder.file(name)) { return Array(data) }
        guard let activity = try await services.store.previewActivity(course: id) else {
            throw APIError.notFound("no such image")
        }
        let png = try PNGPreview(activity: activity).png
        try? folder.write(png, as: name)
        return png
    }

    static func response(_ bytes: [UInt8], type: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: type, .cacheControl: "public, max-age=31536000, immutable"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
