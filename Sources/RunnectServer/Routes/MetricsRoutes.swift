import Foundation
import Hummingbird
import RunnectStore

/// `GET /metrics`: the server's metrics in Prometheus's text format, for a scraper on the
/// operator's network (no sign-in; put it behind the proxy's rules, as `/health`).
struct MetricsRoutes: Sendable {
    let metrics: ServerMetrics
    let admission: Admission
    let activity: StoreActivity

    func add(to router: Router<RunnectRequestContext>) {
        router.get("metrics") { _, _ in
            metrics.refresh(admission: admission, activity: activity)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.text())))
        }
    }
}
