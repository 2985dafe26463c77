import Foundation
import Hummingbird

/// The app's course upload (`POST /api/course`): a `multipart/form-data` body with a JSON part
/// `data` and a map image part `image`, parsed as it streams in (``MultipartForm``). The image
/// goes to a temporary file in the images folder, never into memory whole before it is checked;
/// the JSON part is held (at most 1 MiB); the whole body at most
/// ``RunnectServer/maximumUploadBytes``.
struct MultipartUpload: Sendable {
    /// The `data` part's bytes.
    var data: Data
    /// The temporary file holding the `image` part (the caller removes it).
    var imageFile: String

    /// The parts of `request`'s body.
    /// - Throws: 400 for a body that is not multipart or lacks a part, 413 over a limit.
    static func read(_ request: Request, folder: ImageFolder) async throws -> MultipartUpload {
        let imageFile = folder.temporaryFile()
        let form = try await MultipartForm.read(
            request,
            rules: [
                .init(
                    name: "data", limit: JSONRequest.maximumBytes, destination: .memory,
                    tooLarge: "the part data takes at most 1 MiB"),
                .init(
                    name: "image", limit: MapImage.maximumBytes, destination: .file(imageFile),
                    tooLarge: "the map image takes at most 5 MiB"),
            ],
            what: "a course is sent as multipart/form-data with the parts data and image")
        guard form.parts["image"] != nil else {
            try? FileManager.default.removeItem(atPath: imageFile)
            throw APIError.badRequest("요청값이 입력되지 않았습니다. (the part image, the map snapshot, is missing)")
        }
        guard let data = form.parts["data"] else {
            try? FileManager.default.removeItem(atPath: imageFile)
            throw APIError.badRequest("요청값이 입력되지 않았습니다. (the part data, the course as JSON, is missing)")
        }
        return MultipartUpload(data: Data(data.bytes), imageFile: imageFile)
    }
}
