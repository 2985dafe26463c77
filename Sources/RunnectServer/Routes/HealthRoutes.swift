import Foundation
import Hummingbird
import RunnectStore

/// `GET /health`: 200 when the store answers (a read of its schema version), else 503, both in
/// the envelope: what a load balancer or systemd's watchdog asks before sending traffic.
struct HealthRoutes: Sendable {
    struct Health: Encodable, Sendable {
        var schemaVersion: Int
    }

    let store: CourseStore

    func add(to router: Router<RunnectRequestContext>) {
        router.get("health") { _, context in
            do {
                let version = try await store.schemaVersion
                return APIResponse(message: "the store answers", data: Health(schemaVersion: version))
            } catch {
                // The reason is for the operator's log, not for whoever asks.
                context.logger.warning("health: the store does not answer: \(error)")
                throw APIError(.serviceUnavailable, "the store does not answer", headers: [.retryAfter: "5"])
            }
        }
    }
}
