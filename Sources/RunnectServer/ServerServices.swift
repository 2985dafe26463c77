import Foundation
import Hummingbird
import RunnectStore

/// What every route reads: the store (as the server itself), the tokens, the sign-in checks,
/// the images and the configuration.
struct ServerServices: Sendable {
    let store: CourseStore
    let configuration: ServerConfiguration
    let tokens: ServerTokens
    let authenticator: Authenticator
    let images: ImageFolder
    /// One key-set cache per OpenID Connect provider, by provider name (APPLE, GOOGLE).
    let keySets: [String: JSONWebKeySetCache]
    /// Each runner's writes, each client address's sign-in attempts.
    let writes: RateLimiter
    let signIns: RateLimiter
    /// Each runner's courses and image bytes held.
    let holdings: HoldingLimits
    /// The feed's orders, paged.
    let feedPages = FeedPages()

    init(store: CourseStore, configuration: ServerConfiguration) {
        self.store = store
        self.configuration = configuration
        self.tokens = ServerTokens(secret: configuration.tokenSecret)
        self.authenticator = Authenticator(tokens: tokens, store: store)
        self.images = ImageFolder(path: configuration.imagesFolder, secret: configuration.tokenSecret)
        var keySets: [String: JSONWebKeySetCache] = [:]
        for provider in configuration.oidcProviders where keySets[provider.name] == nil {
            keySets[provider.name] = JSONWebKeySetCache(provider.keySet)
        }
        self.keySets = keySets
        self.writes = RateLimiter(perMinute: configuration.writesPerMinute)
        self.signIns = RateLimiter(perMinute: configuration.signInsPerMinute)
        self.holdings = HoldingLimits(
            courses: configuration.coursesPerRunner, imageBytes: configuration.imageBytesPerRunner)
    }

    /// The caller of a request, and the store acting as them (``Authenticator/caller(of:visitors:headerless:)``).
    func caller(
        of request: Request, context: RunnectRequestContext, visitors: Bool = false, headerless: Bool = false
    ) async throws -> (Caller, CourseStore) {
        let caller = try await authenticator.caller(of: request, visitors: visitors, headerless: headerless)
        context.state.runnerID = caller.runnerID
        if request.method != .get, let id = caller.runnerID, let wait = writes.take(String(id)) {
            throw APIError.tooManyRequests(
                "you made \(configuration.writesPerMinute) changes in the last minute, the most a runner may",
                retryAfter: wait)
        }
        return (caller, try store.acting(as: caller.name))
    }

    /// The signed-in runner of a request (visitors refused), and the store acting as them.
    func runner(of request: Request, context: RunnectRequestContext) async throws -> (id: Int64, store: CourseStore) {
        let (caller, store) = try await caller(of: request, context: context)
        guard let id = caller.runnerID else { throw APIError.unauthorized("sign in first") }
        return (id, store)
    }

    /// The absolute address images are named under: `--public-url`, else the request's host.
    func baseURL(of request: Request) -> String {
        if let url = configuration.publicURL { return url }
        let host = request.head.authority ?? "\(configuration.host):\(configuration.port)"
        return "http://\(host)"
    }
}
