/// Why a sign-in's OpenID Connect ID token was refused: each is a 401 in the envelope.
public enum IDTokenError: Error, Equatable, CustomStringConvertible {
    /// Not a compact JWS with JSON header and claims, or claims without `iss`, `sub`, `aud`, `exp`.
    case malformed
    /// Signed with an algorithm other than RS256 or ES256 (`none` and HMAC included).
    case algorithmNotAllowed(String)
    /// No key of the issuer's set has the token's key id (or, without one, fits its algorithm).
    case unknownKey(String?)
    /// A key of the set cannot be used (its numbers missing, an RSA key under 2048 bits).
    case unusableKey(String)
    /// The signature does not verify under the issuer's key.
    case badSignature
    /// `iss` is none of the provider's issuers.
    case wrongIssuer(String)
    /// `aud` names none of the provider's audiences.
    case wrongAudience
    /// Past `exp`.
    case expired
    /// The issuer's key set could not be read.
    case keySetUnavailable(String)

    public var description: String {
        switch self {
        case .malformed: "the ID token is not a signed JWT with iss, sub, aud and exp"
        case .algorithmNotAllowed(let alg): "the ID token is signed with \(alg); only RS256 and ES256 are accepted"
        case .unknownKey(let kid): "no key of the issuer's key set matches the ID token's key id \(kid ?? "(none)")"
        case .unusableKey(let why): "the issuer's key set holds \(why)"
        case .badSignature: "the ID token's signature does not verify"
        case .wrongIssuer(let iss): "the ID token's issuer \(iss) is not one this server accepts"
        case .wrongAudience: "the ID token is not meant for this app (aud)"
        case .expired: "the ID token has expired; sign in again"
        case .keySetUnavailable(let why): "the issuer's key set cannot be read: \(why)"
        }
    }
}
