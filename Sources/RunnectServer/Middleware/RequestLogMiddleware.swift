import Foundation
import Hummingbird
import Logging

/// One log line per request, when its answer is ready: method, path (without the query), HTTP
/// status, milliseconds, the runner it acted for and, for a 500, the error's id. Never a token
/// or a header: the line is safe to keep.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = RunnectRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        var line = "\(request.method) \(request.uri.path) \(response.status.code) "
        line += String(format: "%.1f ms", milliseconds)
        line += " runner=" + (context.state.runnerID.map(String.init) ?? "-")
        if let id = context.state.errorID { line += " error=\(id)" }
        context.logger.info("\(line)")
        return response
    }
}
