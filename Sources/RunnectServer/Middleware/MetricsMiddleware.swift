import Foundation
import Hummingbird

/// Counts every request in ``ServerMetrics`` (its route, status and time), and those in flight.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = RunnectRequestContext

    let metrics: ServerMetrics

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        metrics.inFlight.increment()
        defer { metrics.inFlight.decrement() }
        let response = try await next(request, context)
        metrics.record(
            method: request.method.rawValue, path: request.uri.path, status: response.status.code,
            elapsed: ContinuousClock.now - start)
        return response
    }
}
