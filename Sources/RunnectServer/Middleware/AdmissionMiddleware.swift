import Foundation
import Hummingbird

/// Puts every request but `/health` and `/metrics` (an operator's view stays open under
/// overload) through the server's bounded queue (``Admission``): past it, 503 in the envelope
/// with `Retry-After`, counted in ``ServerMetrics``.
struct AdmissionMiddleware: RouterMiddleware {
    typealias Context = RunnectRequestContext

    let admission: Admission
    let metrics: ServerMetrics

    /// The paths that skip the queue.
    static let exempt: Set<String> = ["/health", "/metrics"]

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if Self.exempt.contains(request.uri.path) { return try await next(request, context) }
        guard await admission.enter() else {
            metrics.overloaded.increment()
            throw APIError.unavailable("the server is busy; try again in a moment", retryAfter: 1)
        }
        defer { admission.leave() }
        return try await next(request, context)
    }
}
