import Foundation
import HTTPTypes
import Hummingbird

/// A success in the app's envelope: an HTTP status (200 or 201, as the app's server answers
/// each endpoint) and the body's own `status`, which may differ (API §2).
struct APIResponse<Payload: Encodable & Sendable>: ResponseGenerator, Sendable {
    var httpStatus: HTTPResponse.Status
    var envelope: APIEnvelope<Payload>

    init(_ httpStatus: HTTPResponse.Status = .ok, status: Int? = nil, message: String, data: Payload?) {
        self.httpStatus = httpStatus
        self.envelope = APIEnvelope(status: status ?? httpStatus.code, success: true, message: message, data: data)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try JSONBody.response(envelope, status: httpStatus)
    }
}

/// The server's JSON bodies: UTF-8, keys as the app's DTOs name them, no escaped slashes (image
/// URLs stay readable).
enum JSONBody {
    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    static func response(
        _ value: some Encodable, status: HTTPResponse.Status, headers extra: HTTPFields = [:]
    ) throws -> Response {
        let data = try encode(value)
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
