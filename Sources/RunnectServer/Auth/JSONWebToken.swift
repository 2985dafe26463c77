import Foundation
import RunnectStore

/// A JSON Web Token in its compact form (RFC 7519, a JWS of RFC 7515): a header, claims and a
/// signature, each base64url. Parsing checks the form only; who signed it is for the caller to
/// check, against ``signingInput`` and ``signature``.
struct JSONWebToken: Sendable {
    /// The header's fields a verifier reads.
    struct Header: Codable, Sendable, Equatable {
        /// The signing algorithm (`HS256`, `RS256`, `ES256`; never trusted on its own).
        var alg: String
        var typ: String?
        /// The key's id in the issuer's key set.
        var kid: String?
    }

    let header: Header
    /// The claims' JSON bytes, decoded by each kind of token into its own type.
    let claims: [UInt8]
    /// `BASE64URL(header) "." BASE64URL(claims)`: what the signature is over.
    let signingInput: [UInt8]
    let signature: [UInt8]

    /// The longest token accepted: sign-in tokens are under 2 KB; anything far larger is no token.
    static let maximumLength = 16 * 1024

    /// Reads the compact form.
    /// - Throws: ``JSONWebTokenError/malformed`` for anything but three base64url parts with a
    ///   JSON header that names an algorithm and JSON claims.
    init(compact text: some StringProtocol) throws {
        guard text.utf8.count <= Self.maximumLength else { throw JSONWebTokenError.malformed }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
            let claims = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2])
        else { throw JSONWebTokenError.malformed }
        guard let header = try? JSONDecoder().decode(Header.self, from: Data(headerBytes)),
            (try? JSONSerialization.jsonObject(with: Data(claims))) is [String: Any]
        else { throw JSONWebTokenError.malformed }
        self.header = header
        self.claims = claims
        self.signingInput = Array("\(parts[0]).\(parts[1])".utf8)
        self.signature = signature
    }

    /// The claims decoded as `Claims`.
    /// - Throws: ``JSONWebTokenError/malformed`` when they do not decode.
    func claims<Claims: Decodable>(as type: Claims.Type) throws -> Claims {
        do {
            return try JSONDecoder().decode(Claims.self, from: Data(claims))
        } catch {
            throw JSONWebTokenError.malformed
        }
    }

    /// The compact form of a token signed with HMAC-SHA256 (`HS256`) under `key`.
    static func signedHS256(claims: some Encodable, key: [UInt8]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let header = try encoder.encode(Header(alg: "HS256", typ: "JWT"))
        let body = try encoder.encode(claims)
        let input = "\(Base64URL.encode(header)).\(Base64URL.encode(body))"
        let mac = MessageAuthentication.hmacSHA256(key: key, message: Array(input.utf8))
        return "\(input).\(Base64URL.encode(mac))"
    }

    /// Whether this token is signed with `HS256` under `key` (an `alg` of anything else, `none`
    /// included, is not).
    func isSignedHS256(key: [UInt8]) -> Bool {
        guard header.alg == "HS256" else { return false }
        let mac = MessageAuthentication.hmacSHA256(key: key, message: signingInput)
        return MessageAuthentication.equalInConstantTime(mac, signature)
    }
}

/// Why a token was refused.
enum JSONWebTokenError: Error, Equatable {
    /// Not a compact JWS with JSON header and claims.
    case malformed
    /// Not signed by the key it must be signed by (or with an algorithm not allowed).
    case badSignature
    /// Signed, but past its `exp`.
    case expired
    /// Signed, but not the kind of token asked for (a refresh token as an access token).
    case wrongKind
}
