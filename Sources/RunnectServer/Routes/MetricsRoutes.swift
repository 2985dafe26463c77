import Foundation
import Hummingbird

/// `GET /metrics`: the server's metrics in Prometheus's text format, for a scraper on the
/// operator's network (no sign-in; put it behind the proxy's rules, as `/health`).
struct MetricsRoutes: Sendable {
    let metrics: ServerMetrics

    func add(to router: Router<RunnectRequestContext>) {
        router.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.text())))
        }
    }
}
