import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Checks a Kakao access token the app sends on sign-in (API §3.1) with Kakao's own API: the
/// token-info endpoint must name this server's app (`--kakao-app-id`), then the user-info
/// endpoint gives the user's `id` (the runner's identity) and, when shared, an e-mail (shown
/// only; never used to find a runner). `--kakao-api URL` replaces Kakao's base address (the
/// tests run a local stand-in). HTTPS goes through Foundation's URLSession (libcurl, the
/// system's OpenSSL).
public struct KakaoSignIn: Sendable {
    /// Who signed in.
    public struct Identity: Sendable, Equatable {
        public var userID: Int64
        public var email: String?
    }

    /// Kakao's API.
    public static let defaultBaseURL = URL(string: "https://kapi.kakao.com")!
    /// How long each of the two calls may take.
    static let timeoutSeconds: TimeInterval = 5

    public let appID: Int64
    public let baseURL: URL

    public init(appID: Int64, baseURL: URL = Self.defaultBaseURL) {
        self.appID = appID
        self.baseURL = baseURL
    }

    private struct TokenInfo: Decodable {
        var id: Int64
        var appID: Int64

        enum CodingKeys: String, CodingKey {
            case id
            case appID = "app_id"
        }
    }

    private struct UserInfo: Decodable {
        struct Account: Decodable {
            var email: String?
            var isEmailValid: Bool?
            var isEmailVerified: Bool?

            enum CodingKeys: String, CodingKey {
                case email
                case isEmailValid = "is_email_valid"
                case isEmailVerified = "is_email_verified"
            }
        }
        var id: Int64
        var account: Account?

        enum CodingKeys: String, CodingKey {
            case id
            case account = "kakao_account"
        }
    }

    /// The Kakao user of `accessToken`.
    /// - Throws: ``KakaoSignInError``.
    public func verify(accessToken: String) async throws -> Identity {
        guard !accessToken.isEmpty, accessToken.count <= 4096,
            accessToken.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline })
        else { throw KakaoSignInError.invalidToken }
        let info: TokenInfo = try await get("v1/user/access_token_info", token: accessToken)
        guard info.appID == appID else { throw KakaoSignInError.otherApp(info.appID) }
        let user: UserInfo = try await get("v2/user/me", token: accessToken)
        guard user.id == info.id else { throw KakaoSignInError.invalidToken }
        let account = user.account
        let email = account?.isEmailValid == false || account?.isEmailVerified == false ? nil : account?.email
        return Identity(userID: user.id, email: email)
    }

    private func get<T: Decodable>(_ path: String, token: String) async throws -> T {
        var request = URLRequest(url: baseURL.appendingPathComponent(path), timeoutInterval: Self.timeoutSeconds)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw KakaoSignInError.unavailable((error as NSError).localizedDescription)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        // Kakao answers 401 for a token it does not know or that expired, 400 for a malformed one.
        if status == 401 || status == 400 { throw KakaoSignInError.invalidToken }
        guard status == 200 else { throw KakaoSignInError.unavailable("\(path) answered \(status)") }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw KakaoSignInError.unavailable("\(path) answered what is not its JSON")
        }
    }
}

/// Why a Kakao sign-in failed: 401 in the envelope, but 503 for ``unavailable(_:)`` (Kakao did
/// not answer as it should: try again later).
public enum KakaoSignInError: Error, Equatable, CustomStringConvertible {
    case invalidToken
    case otherApp(Int64)
    case unavailable(String)

    public var description: String {
        switch self {
        case .invalidToken: "Kakao does not know this access token (expired or not Kakao's); sign in again"
        case .otherApp(let id): "the Kakao access token is for another app (\(id)), not this server's"
        case .unavailable(let why): "Kakao cannot check the sign-in now: \(why)"
        }
    }
}
