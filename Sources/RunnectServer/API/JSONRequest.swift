import Foundation
import Hummingbird

/// Reading a request's JSON body: at most 1 MiB, and every way it can be wrong a 400 (or 413)
/// naming what to fix, never a 500.
enum JSONRequest {
    /// The largest JSON body taken (the app's biggest is a bulk delete's list of ids).
    static let maximumBytes = 1024 * 1024

    /// The body of `request` decoded as `T`.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        var body = ByteBuffer()
        for try await chunk in request.body {
            guard body.readableBytes + chunk.readableBytes <= maximumBytes else {
                throw APIError(.contentTooLarge, "a JSON body takes at most 1 MiB")
            }
            var chunk = chunk
            body.writeBuffer(&chunk)
        }
        return try decode(type, from: Data(buffer: body))
    }

    /// `data` decoded as `T`, its faults told as the app's server tells a validation error.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        guard !data.isEmpty else { throw APIError.badRequest("요청값이 입력되지 않았습니다. (the body is empty; send JSON)") }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw APIError.badRequest(describe(error))
        } catch {
            throw APIError.badRequest("the body is not JSON: \(error.localizedDescription)")
        }
    }

    /// A decoding error as a person reads it: which field, what was wrong.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            return "요청값이 입력되지 않았습니다. (\(field) is missing)"
        case .valueNotFound(_, let context):
            return "요청값이 입력되지 않았습니다. (\(path(context.codingPath)) is null)"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) must be \(describe(type))"
        case .dataCorrupted(let context):
            let field = path(context.codingPath)
            return field.isEmpty ? "the body is not valid JSON" : "\(field): \(context.debugDescription)"
        @unknown default:
            return "the body is not what this endpoint takes"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int64.Type, is Int.Type: "a whole number"
        case is Double.Type, is Float.Type: "a number"
        default: "\(type)"
        }
    }
}
