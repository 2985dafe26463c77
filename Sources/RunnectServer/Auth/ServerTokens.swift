import Foundation
import RunnectStore

/// The server's own tokens, as the app's server makes them (API §5): JWTs signed with
/// HMAC-SHA256 under the ``TokenSecret``, whose claims are `sub` (`access_token` or
/// `refresh_token`), `userId` (the runner's id, as a string), `iat` and `exp`; an access token
/// lives 2 hours, a refresh token 14 days. A refresh token also carries a random `jti`, so that
/// two sign-ins in one second still give two tokens (only the latest is valid).
package struct ServerTokens: Sendable {
    /// What a token's `sub` says it is.
    package enum Kind: String, Sendable {
        case access = "access_token"
        case refresh = "refresh_token"

        var lifetime: TimeInterval {
            switch self {
            case .access: 2 * 3600
            case .refresh: 14 * 24 * 3600
            }
        }
    }

    struct Claims: Codable, Sendable, Equatable {
        var sub: String
        var userId: String
        var iat: Int64
        var exp: Int64
        var jti: String?
    }

    /// A token's runner and when it stops being valid.
    package struct Verified: Sendable, Equatable {
        package var runnerID: Int64
        package var expires: Date
    }

    package let secret: TokenSecret

    package init(secret: TokenSecret) {
        self.secret = secret
    }

    /// A new token of `kind` for runner `runnerID`, issued at `now`.
    package func issue(_ kind: Kind, runnerID: Int64, now: Date = Date()) throws -> String {
        let issued = Int64(now.timeIntervalSince1970.rounded(.down))
        var claims = Claims(
            sub: kind.rawValue, userId: String(runnerID), iat: issued, exp: issued + Int64(kind.lifetime))
        if kind == .refresh {
            var generator = SystemRandomNumberGenerator()
            claims.jti = Base64URL.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        return try JSONWebToken.signedHS256(claims: claims, key: secret.bytes)
    }

    /// The runner of a token of `kind` signed under the secret.
    /// - Parameter allowExpired: Accept a token past its `exp` (an access token being refreshed).
    /// - Throws: ``JSONWebTokenError``: `.malformed`, `.badSignature` (also for `alg` `none` or
    ///   any algorithm but HS256), `.wrongKind` (a refresh token given as an access token, or the
    ///   other way round), `.expired`.
    package func verify(_ text: String, as kind: Kind, allowExpired: Bool = false, now: Date = Date()) throws
        -> Verified
    {
        let token = try JSONWebToken(compact: text)
        guard token.isSignedHS256(key: secret.bytes) else { throw JSONWebTokenError.badSignature }
        let claims = try token.claims(as: Claims.self)
        guard claims.sub == kind.rawValue else { throw JSONWebTokenError.wrongKind }
        // The app's server writes the id as a string; a number or anything else is not its token.
        guard let runnerID = Int64(claims.userId), runnerID > 0, String(runnerID) == claims.userId else {
            throw JSONWebTokenError.malformed
        }
        let expires = Date(timeIntervalSince1970: TimeInterval(claims.exp))
        if !allowExpired, expires <= now { throw JSONWebTokenError.expired }
        return Verified(runnerID: runnerID, expires: expires)
    }

    /// What the store keeps of a refresh token: its SHA-256, hex. A stolen copy of the store then
    /// holds no token that signs in.
    static func fingerprint(of token: String) -> String {
        ContentHash.hex(MessageAuthentication.sha256(Array(token.utf8)))
    }
}
