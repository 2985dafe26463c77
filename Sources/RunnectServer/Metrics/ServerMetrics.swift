import Foundation
import Prometheus
import RunnectStore

/// What `GET /metrics` tells in Prometheus's text format (swift-prometheus): requests by route
/// and status, their latency by route, the requests in flight and waiting in the queue, the
/// refusals of overload, and the store's transactions (time by kind, in flight, the connections
/// it has).
struct ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    let routes: RouteTemplates
    let inFlight: Gauge
    let overloaded: Counter
    let queueRunning: Gauge
    let queueWaiting: Gauge
    let storeInFlight: [StoreActivity.Kind: Gauge]
    let storeConnections: Gauge

    /// `runnect_<subsystem>_<name>[_<unit>]`, with its help line.
    static func metric(_ subsystem: String, _ name: String, unit: String = "", help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "runnect", subsystem: subsystem, metricName: name, unitName: unit, helpText: help)
    }

    static var requestsAnswered: MetricNameDescriptor {
        metric("http", "requests", unit: "total", help: "Requests answered, by method, route and status.")
    }
    static var requestDuration: MetricNameDescriptor {
        metric(
            "http", "request_duration", unit: "seconds",
            help: "Time from a request's head to its answer, by method and route.")
    }

    /// Latency buckets from a tenth of a millisecond to ten seconds.
    static let buckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
    ]

    init(routes: RouteTemplates = .documented) {
        self.routes = routes
        inFlight = registry.makeGauge(
            descriptor: Self.metric("http", "requests_in_flight", help: "Requests being answered now."))
        overloaded = registry.makeCounter(
            descriptor: Self.metric(
                "http", "requests_overloaded", unit: "total",
                help: "Requests refused with 503 because the queue was full or their wait ran out."))
        queueRunning = registry.makeGauge(
            descriptor: Self.metric("http", "queue_running", help: "Requests past the queue, being answered."))
        queueWaiting = registry.makeGauge(
            descriptor: Self.metric("http", "queue_waiting", help: "Requests waiting in the queue for their turn."))
        var storeInFlight: [StoreActivity.Kind: Gauge] = [:]
        for kind in StoreActivity.Kind.allCases {
            storeInFlight[kind] = registry.makeGauge(
                descriptor: Self.metric(
                    "store", "transactions_in_flight",
                    help: "Store transactions begun and not ended (waiting for a connection included), by kind."),
                labels: [("kind", kind.rawValue)])
        }
        self.storeInFlight = storeInFlight
        storeConnections = registry.makeGauge(
            descriptor: Self.metric(
                "store", "connections_max",
                help: "Transactions the store runs at once (SQLite's readers and writer, PostgreSQL's pool)."))
    }

    /// Times every transaction of `store` from now on: `runnect_store_transaction_duration_seconds`
    /// by kind and outcome.
    func observe(_ activity: StoreActivity) {
        storeConnections.set(Double(activity.connectionLimit))
        let histograms = Dictionary(
            uniqueKeysWithValues: StoreActivity.Kind.allCases.flatMap { kind in
                [false, true].map { failed in
                    (
                        "\(kind.rawValue) \(failed)",
                        registry.makeDurationHistogram(
                            descriptor: Self.metric(
                                "store", "transaction_duration", unit: "seconds",
                                help:
                                    "Store transactions' time, waiting for a connection included, by kind and outcome."
                            ),
                            labels: [("kind", kind.rawValue), ("outcome", failed ? "error" : "ok")],
                            buckets: Self.buckets)
                    )
                }
            })
        activity.onTransaction { transaction in
            histograms["\(transaction.kind.rawValue) \(transaction.failed)"]?.record(
                .nanoseconds(Int64(transaction.seconds * 1e9)))
        }
    }

    /// Sets the gauges read at the moment of a scrape.
    func refresh(admission: Admission, activity: StoreActivity) {
        let counts = admission.counts
        queueRunning.set(Double(counts.running))
        queueWaiting.set(Double(counts.waiting))
        for (kind, gauge) in storeInFlight { gauge.set(Double(activity.inFlight(kind))) }
    }

    /// Counts one answered request and its time, under its route's template (`/api/course/{}`),
    /// or `unmatched` (the label set stays bounded whatever paths clients send).
    func record(method: String, path: String, status: Int, elapsed: Duration) {
        let route = routes.template(of: path) ?? "unmatched"
        registry.makeCounter(
            descriptor: Self.requestsAnswered,
            labels: [("method", method), ("route", route), ("status", String(status))]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: Self.requestDuration, labels: [("method", method), ("route", route)], buckets: Self.buckets
        ).record(elapsed)
    }

    /// The text `GET /metrics` answers.
    func text() -> [UInt8] { registry.emitToBuffer() }
}

/// The server's routes as templates (`/api/course/{}/ranking`): which one a path is.
struct RouteTemplates: Sendable {
    let templates: [[Substring]]

    /// The templates of the paths of the OpenAPI document, which a test keeps in step with the
    /// routes.
    static let documented: RouteTemplates = {
        let document = try? JSONSerialization.jsonObject(with: Data(PackageResources.openapi_json)) as? [String: Any]
        let paths = (document?["paths"] as? [String: Any])?.keys.sorted() ?? []
        return RouteTemplates(paths)
    }()

    /// Templates from route paths as the router lists them (`/api/course/{courseId}`,
    /// `/images/:name`): a segment in braces or after a colon takes any value.
    init(_ paths: [String]) {
        templates = paths.map { path in
            path.split(separator: "/").map { $0.hasPrefix("{") || $0.hasPrefix(":") ? "{}" : $0 }
        }
    }

    /// The template `path` matches, written `/a/{}/b`; `nil` for none.
    func template(of path: String) -> String? {
        let segments = path.split(separator: "/")
        for template in templates where template.count == segments.count {
            if zip(template, segments).allSatisfy({ $0 == "{}" || $0 == $1 }) {
                return "/" + template.joined(separator: "/")
            }
        }
        return nil
    }
}
