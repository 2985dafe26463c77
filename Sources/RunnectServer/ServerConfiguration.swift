import Foundation

/// How `runnect serve` listens, signs its tokens, checks sign-ins and keeps images.
public struct ServerConfiguration: Sendable {
    /// The address to listen on: `127.0.0.1`, `::1`, `0.0.0.0`, …
    public var host: String
    /// The port; 0 takes a free one (``RunnectServer/Listening`` tells which).
    public var port: Int
    /// The secret the server's own tokens are signed with.
    public var tokenSecret: TokenSecret
    /// How long requests in flight may take to finish after SIGTERM or SIGINT.
    public var gracePeriod: Duration
    /// The OpenID Connect providers sign-ins are accepted from (`--oidc`): APPLE, GOOGLE.
    public var oidcProviders: [OIDCProvider]
    /// Kakao sign-in (`--kakao-app-id`, `--kakao-api`); `nil`: a Kakao sign-in is refused.
    public var kakao: KakaoSignIn?
    /// The folder of the map images the app uploads and of the previews drawn for the others.
    public var imagesFolder: String
    /// The server's address as clients reach it (`--public-url`, behind a proxy); `nil`: from
    /// each request's `Host`.
    public var publicURL: String?
    /// The shared courses listed as marathon courses (`--marathon-courses`), in order.
    public var marathonCourses: [Int64]
    /// The time zone of the dates the app shows (`createdAt`).
    public var timeZone: TimeZone
    /// The writes (any request but a GET) a runner may make a minute (`--writes-per-minute`); 0:
    /// no limit.
    public var writesPerMinute: Int
    /// The sign-in attempts a client address may make a minute (`--sign-ins-per-minute`); 0: no
    /// limit.
    public var signInsPerMinute: Int
    /// The courses a runner may keep (`--courses-per-runner`); 0: no limit.
    public var coursesPerRunner: Int
    /// The bytes of map images a runner may keep (`--image-megabytes-per-runner`); 0: no limit.
    public var imageBytesPerRunner: Int64
    /// Requests answered at once (`--max-running`); more wait in the queue.
    public var maximumRunning: Int
    /// Requests waiting at most (`--max-queued`); more are refused with 503 and `Retry-After`.
    public var maximumQueued: Int
    /// The longest a request waits in the queue before it is refused with 503.
    public var queuePatience: Duration
    /// How long the store tries to regain a lost database connection (a restarting PostgreSQL)
    /// before a request gets 503: short, so that clients hear of an outage within seconds.
    public static let storeReconnectSeconds: Double = 3

    public init(
        host: String = "127.0.0.1", port: Int = 8080, tokenSecret: TokenSecret, gracePeriod: Duration = .seconds(8),
        oidcProviders: [OIDCProvider] = [], kakao: KakaoSignIn? = nil, imagesFolder: String,
        publicURL: String? = nil, marathonCourses: [Int64] = [], timeZone: TimeZone = .current,
        writesPerMinute: Int = 120, signInsPerMinute: Int = 20, coursesPerRunner: Int = 10_000,
        imageBytesPerRunner: Int64 = 256 * 1_048_576, maximumRunning: Int = 128, maximumQueued: Int = 256,
        queuePatience: Duration = .seconds(2)
    ) {
        self.host = host
        self.port = port
        self.tokenSecret = tokenSecret
        self.gracePeriod = gracePeriod
        self.oidcProviders = oidcProviders
        self.kakao = kakao
        self.imagesFolder = imagesFolder
        self.publicURL = publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        self.marathonCourses = marathonCourses
        self.timeZone = timeZone
        self.writesPerMinute = writesPerMinute
        self.signInsPerMinute = signInsPerMinute
        self.coursesPerRunner = coursesPerRunner
        self.imageBytesPerRunner = imageBytesPerRunner
        self.maximumRunning = maximumRunning
        self.maximumQueued = maximumQueued
        self.queuePatience = queuePatience
    }
}
