import Foundation
import HTTPTypes
import Hummingbird
import RunnectStore

/// Who makes a request: a signed-in runner (their id and the store's name for them), or a
/// visitor (the app's guest mode: `accessToken: visitor`, `refreshToken: visitor`).
enum Caller: Sendable, Equatable {
    case runner(id: Int64, name: String)
    case visitor

    /// The name the store reads a visitor's requests as: a runner who owns and scraps nothing,
    /// so that only shared courses are theirs to read.
    static let visitorName = "runnect_visitor"

    /// The runner's id; `nil` for a visitor.
    var runnerID: Int64? {
        if case .runner(let id, _) = self { return id }
        return nil
    }

    /// The store's name of the caller.
    var name: String {
        switch self {
        case .runner(_, let name): name
        case .visitor: Self.visitorName
        }
    }
}

/// Tells who makes a request from its `accessToken` and `refreshToken` headers (API §5, §8).
struct Authenticator: Sendable {
    static let accessHeader = HTTPField.Name("accessToken")!
    static let refreshHeader = HTTPField.Name("refreshToken")!
    static let visitorToken = "visitor"

    let tokens: ServerTokens
    let store: CourseStore
    /// Runners found active in the last seconds.
    let known = KnownRunners()

    /// The caller of `request`.
    /// - Parameters:
    ///   - visitors: Whether this route takes visitors (the discovery GETs).
    ///   - headerless: Whether a request with neither header is a visitor's (downloads, which a
    ///     browser's link or a watch's app fetches without the API's headers); needs `visitors`.
    /// - Throws: 400 without both headers (the app's server's `NULL_ACCESS_TOKEN`), 401 for a
    ///   token that is not a valid, unexpired access token of this server, or for a visitor where
    ///   visitors may not go; 404 when the runner is gone.
    func caller(of request: Request, visitors: Bool, headerless: Bool = false) async throws -> Caller {
        let accessField = request.headers[Self.accessHeader]
        let refreshField = request.headers[Self.refreshHeader]
        if visitors, headerless, accessField == nil, refreshField == nil { return .visitor }
        guard let access = accessField, !access.isEmpty, let refresh = refreshField, !refresh.isEmpty else {
            throw APIError.badRequest("both the accessToken and refreshToken headers are needed (토큰 값이 없습니다.)")
        }
        if access == Self.visitorToken && refresh == Self.visitorToken {
            guard visitors else { throw APIError.unauthorized("visitors may only look at shared courses; sign in") }
            return .visitor
        }
        let verified: ServerTokens.Verified
        do {
            verified = try tokens.verify(access, as: .access)
        } catch JSONWebTokenError.expired {
            throw APIError.unauthorized("만료된 토큰입니다. (the access token expired; refresh it)")
        } catch {
            throw APIError.unauthorized("유효하지 않은 엑세스 토큰입니다. (the access token is not valid)")
        }
        return try await runner(verified.runnerID)
    }

    /// The runner behind a verified token.
    func runner(_ id: Int64) async throws -> Caller {
        if let name = known.name(of: id) { return .runner(id: id, name: name) }
        guard let runner = try await store.runners(ids: [id])[id], !runner.isWithdrawn else {
            throw APIError.notFound("존재하지 않는 유저입니다 (no runner #\(id))")
        }
        known.remember(id, name: runner.name)
        return .runner(id: runner.id, name: runner.name)
    }
}
