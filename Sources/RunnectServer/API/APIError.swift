import Foundation
import HTTPTypes
import Hummingbird

/// A refusal the server answers in the app's envelope (`success: false`, `data: null`), with
/// the body's `status` equal to the HTTP status (API §8). Where the app's server names a status
/// for a case (§1's table), the same status: a client's mistake is a 4xx, never a 5xx.
struct APIError: Error, Sendable, Equatable {
    var status: HTTPResponse.Status
    var message: String
    /// Extra headers (`Retry-After`).
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    /// 400: the request is not what the endpoint takes.
    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, message) }
    /// 401: no valid sign-in (the app then refreshes its access token, once).
    static func unauthorized(_ message: String) -> APIError { APIError(.unauthorized, message) }
    /// 404: no such route or resource where the app's server says 404.
    static func notFound(_ message: String) -> APIError { APIError(.notFound, message) }
    /// 503 with `Retry-After`: the server cannot answer now (its store is out of reach, or it
    /// is over capacity); the same request later can succeed.
    static func unavailable(_ message: String, retryAfter seconds: Int = 2) -> APIError {
        APIError(.serviceUnavailable, message, headers: [.retryAfter: String(seconds)])
    }
    /// 413: the body is over the limit.
    static func tooLarge(limit: Int) -> APIError {
        APIError(.contentTooLarge, "the request body is over \(limit / 1024 / 1024) MiB")
    }
}

extension HTTPResponse.Status {
    /// 507 Insufficient Storage (RFC 4918): the server cannot keep what was sent now.
    static let insufficientStorage507 = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
}
