import Foundation
import Hummingbird
import Logging
import NIOCore
import RunnectStore
import ServiceLifecycle

/// `runnect serve`: the Runnect app's HTTP API (`/api`, in the app's envelope) over one open
/// `CourseStore`, on Hummingbird 2. Each request acts as its signed-in runner through the
/// store's `acting(as:)`: no rule of who may do what lives in a route.
///
/// SIGTERM and SIGINT stop it gracefully (swift-service-lifecycle): it stops accepting, lets
/// in-flight requests finish for ``ServerConfiguration/gracePeriod``, then closes what is left
/// and returns.
public struct RunnectServer: Sendable {
    /// The largest body a request may have (a course's map image in a multipart body).
    public static let maximumUploadBytes = 32 * 1024 * 1024

    /// Where the server listens, once it does.
    public struct Listening: Sendable, Equatable {
        /// The address as bound (`127.0.0.1`, `::1`, …).
        public var host: String
        /// The port as bound (the real one for port 0).
        public var port: Int

        /// `http://HOST:PORT`, an IPv6 host in brackets.
        public var url: String {
            host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)"
        }
    }

    let store: CourseStore
    let configuration: ServerConfiguration
    let logger: Logger

    public init(store: CourseStore, configuration: ServerConfiguration, logger: Logger) {
        self.store = store
        self.configuration = configuration
        self.logger = logger
    }

    /// Serves until SIGTERM or SIGINT (or the task is cancelled); `listening` is called once the
    /// socket listens.
    public func run(listening: @escaping @Sendable (Listening) async -> Void) async throws {
        try ImageFolder(path: configuration.imagesFolder, secret: configuration.tokenSecret).prepare()
        let application = Application(
            router: router(),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "runnect"),
            onServerRunning: { channel in
                guard let address = channel.localAddress, let port = address.port else { return }
                await listening(Listening(host: address.ipAddress ?? configuration.host, port: port))
            },
            logger: logger
        )
        var group = ServiceGroupConfiguration(
            services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = configuration.gracePeriod
        // After the grace, cancellation closes what is left. No bound on it: past a bound
        // ServiceLifecycle ends the process with a fatal error instead of exit 0 (and, for a
        // server inside a test process, every test with it: seen in CI when the machine's two
        // task threads were busy elsewhere). The routes hold no blocking call, so cancellation
        // takes milliseconds (the SIGTERM tests time the whole stop, under 10 s).
        group.maximumCancellationDuration = nil
        try await ServiceGroup(configuration: group).run()
    }

    /// Every route of the API, behind the log line and the error envelope.
    func router() -> Router<RunnectRequestContext> {
        // HEAD answers as GET without the body (curl -I, link checkers, a download's size).
        let router = Router(context: RunnectRequestContext.self, options: .autoGenerateHeadEndpoints)
        let metrics = ServerMetrics()
        metrics.observe(store.activity)
        let admission = Admission(
            running: configuration.maximumRunning, queued: configuration.maximumQueued,
            patience: configuration.queuePatience)
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: ErrorEnvelopeMiddleware())
        router.add(middleware: AdmissionMiddleware(admission: admission, metrics: metrics))
        HealthRoutes(store: store).add(to: router)
        MetricsRoutes(metrics: metrics, admission: admission, activity: store.activity).add(to: router)
        let services = ServerServices(store: store, configuration: configuration)
        AuthRoutes(services: services).add(to: router)
        UserRoutes(services: services).add(to: router)
        CourseRoutes(services: services).add(to: router)
        PublicCourseRoutes(services: services).add(to: router)
        NearbyRoutes(services: services).add(to: router)
        RecordRoutes(services: services).add(to: router)
        WatchRunRoutes(services: services).add(to: router)
        DownloadRoutes(services: services, cache: DownloadCache()).add(to: router)
        AttemptRoutes(services: services).add(to: router)
        ScrapRoutes(services: services).add(to: router)
        RankingRoutes(services: services).add(to: router)
        ImageRoutes(services: services).add(to: router)
        DocumentRoutes().add(to: router)
        PageRoutes(services: services).add(to: router)
        return router
    }
}
