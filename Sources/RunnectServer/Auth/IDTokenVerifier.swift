import Foundation

/// Checks a sign-in's OpenID Connect ID token as the app's server does for Apple (API §3.1): the
/// signature (RS256 or ES256 only) under the issuer's key, then `iss`, `aud` and `exp`. The
/// runner is then the pair `iss` + `sub`, never the e-mail.
struct IDTokenVerifier: Sendable {
    /// Who signed in.
    struct Identity: Sendable, Equatable {
        var issuer: String
        var subject: String
        /// Shown on the runner's page when the provider gives it; never used to find a runner.
        var email: String?
    }

    /// The claims read; `aud` is a string or an array of strings (OIDC Core §2).
    private struct Claims: Decodable {
        var iss: String
        var sub: String
        var aud: Audience
        var exp: Double
        var email: String?

        enum Audience: Decodable {
            case one(String)
            case many([String])

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let one = try? container.decode(String.self) {
                    self = .one(one)
                } else {
                    self = .many(try container.decode([String].self))
                }
            }

            var values: [String] {
                switch self {
                case .one(let value): [value]
                case .many(let values): values
                }
            }
        }
    }

    /// Clock skew allowed past `exp`.
    static let leewaySeconds: Double = 60

    let provider: OIDCProvider

    /// The identity in `text`, checked against `keys`.
    /// - Throws: ``IDTokenError``.
    func verify(_ text: String, keys: JSONWebKeySet, now: Date = Date()) throws -> Identity {
        let token: JSONWebToken
        do {
            token = try JSONWebToken(compact: text)
        } catch {
            throw IDTokenError.malformed
        }
        let alg = token.header.alg
        guard ["RS256", "ES256"].contains(alg) else { throw IDTokenError.algorithmNotAllowed(alg) }
        guard let key = keys.key(alg: alg, kid: token.header.kid) else {
            throw IDTokenError.unknownKey(token.header.kid)
        }
        guard
            SignatureVerifier.verify(
                alg: alg, signature: token.signature, message: token.signingInput,
                subjectPublicKeyInfo: try key.subjectPublicKeyInfo())
        else { throw IDTokenError.badSignature }
        let claims: Claims
        do {
            claims = try JSONDecoder().decode(Claims.self, from: Data(token.claims))
        } catch {
            throw IDTokenError.malformed
        }
        guard provider.issuers.contains(claims.iss) else { throw IDTokenError.wrongIssuer(claims.iss) }
        guard claims.aud.values.contains(where: provider.audiences.contains) else { throw IDTokenError.wrongAudience }
        guard claims.exp + Self.leewaySeconds > now.timeIntervalSince1970 else { throw IDTokenError.expired }
        guard !claims.sub.isEmpty else { throw IDTokenError.malformed }
        return Identity(issuer: claims.iss, subject: claims.sub, email: claims.email)
    }
}
