import Foundation
import HTTPTypes
import Hummingbird
import Logging
import RunnectStore

/// Turns every error a route throws into the app's envelope (API §8): an ``APIError`` as it
/// says; Hummingbird's own (no such route 404, a body over the limit 413, …) with its status and
/// a message; anything else a 500 whose body says only an error id, which the log carries with
/// the error itself (never a stack trace or SQL in a body).
struct ErrorEnvelopeMiddleware: RouterMiddleware {
    typealias Context = RunnectRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try Self.response(for: error)
        } catch let error as StoreError where APIError(error) != nil {
            return try Self.response(for: APIError(error)!)
        } catch let error as HTTPError {
            return try Self.response(for: Self.apiError(for: error, request: request))
        } catch {
            let id = Self.newErrorID()
            context.state.errorID = id
            context.logger.error("error \(id): \(String(reflecting: error))")
            return try Self.response(
                for: APIError(
                    .internalServerError, "an unexpected server error (error id \(id)); the server's log has it"))
        }
    }

    static func response(for error: APIError) throws -> Response {
        let envelope = APIEnvelope<NoData>(status: error.status.code, success: false, message: error.message, data: nil)
        return try JSONBody.response(envelope, status: error.status, headers: error.headers)
    }

    /// Hummingbird's errors in words a client can act on.
    static func apiError(for error: HTTPError, request: Request) -> APIError {
        switch error.status {
        case .notFound:
            return APIError(.notFound, "no endpoint \(request.method) \(request.uri.path)")
        case .contentTooLarge:
            return .tooLarge(limit: RunnectServer.maximumUploadBytes)
        case .methodNotAllowed:
            return APIError(.methodNotAllowed, "\(request.method) is not allowed on \(request.uri.path)")
        default:
            return APIError(error.status, error.body ?? error.status.reasonPhrase, headers: error.headers)
        }
    }

    /// 8 random bytes, hex: enough to find one line in a log, too few to mean anything else.
    static func newErrorID() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%016llx", UInt64.random(in: 0...UInt64.max, using: &generator))
    }
}
