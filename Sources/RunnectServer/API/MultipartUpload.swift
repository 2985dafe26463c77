import Foundation
import Hummingbird
import MultipartKit

/// The app's course upload (`POST /api/course`): a `multipart/form-data` body with a JSON part
/// `data` and a map image part `image`, parsed as it streams in. The image goes to a temporary
/// file in the images folder, never into memory whole before it is checked; the JSON part is
/// held (at most 1 MiB); the whole body at most ``RunnectServer/maximumUploadBytes``.
struct MultipartUpload: Sendable {
    /// The `data` part's bytes.
    var data: Data
    /// The temporary file holding the `image` part (the caller removes it).
    var imageFile: String

    /// The parts of `request`'s body.
    /// - Throws: 400 for a body that is not multipart or lacks a part, 413 over a limit.
    static func read(_ request: Request, folder: ImageFolder) async throws -> MultipartUpload {
        guard let type = request.headers[.contentType], let boundary = boundary(in: type) else {
            throw APIError.badRequest("a course is sent as multipart/form-data with the parts data and image")
        }
        let reader = PartReader(imageFile: folder.temporaryFile())
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in reader.header(name, value) }
        parser.onBody = { buffer in reader.body(&buffer) }
        parser.onPartComplete = { reader.partEnded() }
        var total = 0
        do {
            for try await chunk in request.body {
                total += chunk.readableBytes
                guard total <= RunnectServer.maximumUploadBytes else {
                    throw APIError.tooLarge(limit: RunnectServer.maximumUploadBytes)
                }
                do {
                    try parser.execute(chunk)
                } catch {
                    throw APIError.badRequest("the multipart body is malformed (boundary \(boundary.prefix(40)))")
                }
                if let failure = reader.failure { throw failure }
            }
            reader.close()
            guard reader.imageEnded else {
                throw APIError.badRequest("요청값이 입력되지 않았습니다. (the part image, the map snapshot, is missing)")
            }
            guard let data = reader.data else {
                throw APIError.badRequest("요청값이 입력되지 않았습니다. (the part data, the course as JSON, is missing)")
            }
            return MultipartUpload(data: data, imageFile: reader.imageFile)
        } catch {
            reader.close()
            try? FileManager.default.removeItem(atPath: reader.imageFile)
            throw error
        }
    }

    /// The `boundary` parameter of a `multipart/form-data` content type.
    static func boundary(in contentType: String) -> String? {
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let kind = parts.first, kind.lowercased() == "multipart/form-data" else { return nil }
        for part in parts.dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            var value = pair[1]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            guard (1...70).contains(value.count) else { return nil }
            return value
        }
        return nil
    }

    /// The parser's callbacks' state: which part is being read and where its bytes go.
    private final class PartReader: @unchecked Sendable {
        enum Part { case data, image, other }

        let imageFile: String
        var current: Part = .other
        var data: Data?
        var dataBytes = Data()
        var image: FileHandle?
        var imageBytes = 0
        var imageEnded = false
        var failure: APIError?

        init(imageFile: String) {
            self.imageFile = imageFile
        }

        func header(_ name: String, _ value: String) {
            guard name.lowercased() == "content-disposition" else { return }
            switch Self.partName(value) {
            case "data": current = .data
            case "image": current = .image
            default: current = .other
            }
            if current == .image, image == nil, !imageEnded {
                guard FileManager.default.createFile(atPath: imageFile, contents: nil),
                    let handle = FileHandle(forWritingAtPath: imageFile)
                else {
                    failure = APIError(.insufficientStorage507, "the server cannot keep the image now; try again later")
                    return
                }
                image = handle
            }
        }

        func body(_ buffer: inout ByteBuffer) {
            guard failure == nil else { return }
            switch current {
            case .data:
                guard dataBytes.count + buffer.readableBytes <= JSONRequest.maximumBytes else {
                    failure = APIError(.contentTooLarge, "the part data takes at most 1 MiB")
                    return
                }
                dataBytes.append(contentsOf: buffer.readableBytesView)
            case .image:
                imageBytes += buffer.readableBytes
                guard imageBytes <= MapImage.maximumBytes else {
                    failure = APIError(.contentTooLarge, "the map image takes at most 5 MiB")
                    return
                }
                do {
                    try image?.write(contentsOf: buffer.readableBytesView)
                } catch {
                    failure = APIError(
                        .insufficientStorage507, "the server cannot keep the image now (\(error.localizedDescription))")
                }
            case .other:
                break
            }
        }

        func partEnded() {
            switch current {
            case .data: data = dataBytes
            case .image:
                imageEnded = true
                try? image?.close()
                image = nil
            case .other: break
            }
            current = .other
        }

        func close() {
            try? image?.close()
            image = nil
        }

        /// The `name` parameter of a `Content-Disposition: form-data` header.
        static func partName(_ value: String) -> String? {
            for piece in value.split(separator: ";") {
                let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2, pair[0].lowercased() == "name" else { continue }
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
            return nil
        }
    }
}
