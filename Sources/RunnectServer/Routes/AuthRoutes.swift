import Foundation
import Hummingbird
import RunnectStore

/// `POST /api/auth` (sign in or sign up with Apple, Google or Kakao) and
/// `GET /api/auth/getNewToken` (a new access token for the current refresh token), API §3.1.
struct AuthRoutes: Sendable {
    struct SignInBody: Decodable, Sendable {
        var token: String
        var provider: String
    }

    struct SignedIn: Encodable, Sendable {
        var type: String
        var email: String?
        var nickname: String?
        var accessToken: String
        var refreshToken: String

        enum CodingKeys: String, CodingKey {
            case type, email, nickname, accessToken, refreshToken
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(type, forKey: .type)
            try container.encode(email, forKey: .email)
            try container.encodeIfPresent(nickname, forKey: .nickname)
            try container.encode(accessToken, forKey: .accessToken)
            try container.encode(refreshToken, forKey: .refreshToken)
        }
    }

    struct NewToken: Encodable, Sendable {
        var accessToken: String
        var refreshToken: String
    }

    let services: ServerServices

    func add(to router: Router<RunnectRequestContext>) {
        router.post("api/auth") { request, context in
            if let wait = services.signIns.take(context.clientAddress) {
                throw APIError.tooManyRequests(
                    "\(services.configuration.signInsPerMinute) sign-ins from this address in the last minute",
                    retryAfter: wait)
            }
            let body = try await JSONRequest.decode(SignInBody.self, from: request)
            let identity = try await identity(of: body)
            let (runner, isNew) = try await services.store.signIn(identity)
            context.state.runnerID = runner.id
            var nickname = runner.nickname
            if isNew { nickname = try await temporaryNickname(for: runner) }
            let tokens = try await TokenPair.issue(for: runner.id, tokens: services.tokens, store: services.store)
            return APIResponse(
                .ok, status: isNew ? 201 : 200, message: isNew ? "회원가입이 완료됐습니다." : "로그인에 성공했습니다.",
                data: SignedIn(
                    type: isNew ? "Signup" : "Login", email: runner.email ?? identity.email,
                    nickname: isNew ? nickname : nil, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken
                ))
        }
        router.get("api/auth/getNewToken") { request, context in
            guard let access = request.headers[Authenticator.accessHeader], !access.isEmpty,
                let refresh = request.headers[Authenticator.refreshHeader], !refresh.isEmpty
            else { throw APIError.badRequest("both the accessToken and refreshToken headers are needed") }
            let runnerID = try refreshedRunner(access: access, refresh: refresh)
            let stored = try await services.store.refreshTokenHash(runner: runnerID)
            let presented = Array(ServerTokens.fingerprint(of: refresh).utf8)
            guard let stored, MessageAuthentication.equalInConstantTime(Array(stored.utf8), presented) else {
                throw APIError.unauthorized("this refresh token was replaced by a newer sign-in; sign in again")
            }
            _ = try await services.authenticator.runner(runnerID)
            context.state.runnerID = runnerID
            return APIResponse(
                .ok, status: 201, message: "토큰 재발급에 성공했습니다.",
                data: NewToken(
                    accessToken: try services.tokens.issue(.access, runnerID: runnerID), refreshToken: refresh))
        }
    }

    /// The runner both tokens name: the access token may have expired but must be this server's
    /// access token; the refresh token must be valid.
    private func refreshedRunner(access: String, refresh: String) throws -> Int64 {
        let accessRunner: Int64
        do {
            accessRunner = try services.tokens.verify(access, as: .access, allowExpired: true).runnerID
        } catch {
            throw APIError.unauthorized("유효하지 않은 엑세스 토큰입니다. (the access token is not this server's)")
        }
        let refreshRunner: Int64
        do {
            refreshRunner = try services.tokens.verify(refresh, as: .refresh).runnerID
        } catch JSONWebTokenError.expired {
            throw APIError.unauthorized("만료된 토큰입니다. (the refresh token expired; sign in again)")
        } catch {
            throw APIError.unauthorized("the refresh token is not valid; sign in again")
        }
        guard accessRunner == refreshRunner else {
            throw APIError.unauthorized("the two tokens are not of the same runner; sign in again")
        }
        return refreshRunner
    }

    /// Who the provider's token says signs in.
    private func identity(of body: SignInBody) async throws -> SignInIdentity {
        guard !body.token.isEmpty else { throw APIError.badRequest("요청값이 입력되지 않았습니다. (token is empty)") }
        let provider = body.provider
        switch provider {
        case "KAKAO":
            guard let kakao = services.configuration.kakao else {
                throw APIError.unauthorized("this server takes no Kakao sign-in (no --kakao-app-id)")
            }
            do {
                let user = try await kakao.verify(accessToken: body.token)
                return SignInIdentity(
                    issuer: "kakao", subject: String(user.userID), provider: provider, email: user.email)
            } catch KakaoSignInError.unavailable(let why) {
                throw APIError(
                    .serviceUnavailable, "Kakao cannot check the sign-in now: \(why)", headers: [.retryAfter: "5"])
            } catch {
                throw APIError.unauthorized("\(error)")
            }
        case "APPLE", "GOOGLE":
            guard let oidc = services.configuration.oidcProviders.first(where: { $0.name == provider }),
                let keySet = services.keySets[provider]
            else { throw APIError.unauthorized("this server takes no \(provider) sign-in (no --oidc \(provider)=…)") }
            let verifier = IDTokenVerifier(provider: oidc)
            do {
                let identity: IDTokenVerifier.Identity
                do {
                    identity = try verifier.verify(body.token, keys: try await keySet.keys())
                } catch IDTokenError.unknownKey {
                    // The issuer may have rotated its keys: read them again (at most once a minute).
                    identity = try verifier.verify(body.token, keys: try await keySet.keys(unknownKey: true))
                }
                return SignInIdentity(
                    issuer: identity.issuer, subject: identity.subject, provider: provider, email: identity.email)
            } catch IDTokenError.keySetUnavailable(let why) {
                throw APIError(
                    .serviceUnavailable, "the \(provider) keys cannot be read now: \(why)", headers: [.retryAfter: "5"])
            } catch {
                throw APIError.unauthorized("\(error)")
            }
        default:
            throw APIError.badRequest("provider must be KAKAO, APPLE or GOOGLE, not \"\(provider.prefix(20))\"")
        }
    }

    /// The app's server's temporary nickname, `임시` and 9 base-36 characters, until the runner
    /// chooses one (the app asks at once).
    private func temporaryNickname(for runner: Runner) async throws -> String {
        let store = try services.store.acting(as: runner.name)
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<8 {
            let nickname = "임시" + String((0..<9).map { _ in alphabet.randomElement(using: &generator)! })
            do {
                return try await store.setNickname(nickname).displayName
            } catch StoreError.nicknameTaken {
                continue
            }
        }
        throw StoreError.nicknameTaken("임시…")
    }
}
