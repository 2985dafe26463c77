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
            if let data = FileManager.default.contents(atPath: folder.file(name)) {
                return Self.response(Array(data), type: "image/png")
            }
            guard let activity = try await services.store.previewActivity(course: course) else {
                throw APIError.notFound("no such image")
            }
            let png = try PNGPreview(activity: activity).png
            try? folder.write(png, as: name)
            return Self.response(png, type: "image/png")
        }
    }

    static func response(_ bytes: [UInt8], type: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: type, .cacheControl: "public, max-age=31536000, immutable"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
