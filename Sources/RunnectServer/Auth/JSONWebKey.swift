import Foundation

/// One public key of an issuer's key set (RFC 7517): RSA (`n`, `e`) or EC P-256 (`x`, `y`).
struct JSONWebKey: Decodable, Sendable, Equatable {
    var kty: String
    var kid: String?
    var alg: String?
    var use: String?
    var n: String?
    var e: String?
    var crv: String?
    var x: String?
    var y: String?

    /// The JWS algorithm this key verifies: `RS256` for RSA, `ES256` for P-256; `nil` for any
    /// other kind (an issuer's set may hold keys the server never uses).
    var algorithm: String? {
        switch (kty, crv) {
        case ("RSA", _): alg ?? "RS256"
        case ("EC", "P-256"): alg ?? "ES256"
        default: nil
        }
    }

    /// The key as a DER SubjectPublicKeyInfo (RFC 5280), what libcrypto reads.
    /// - Throws: ``IDTokenError/unusableKey(_:)`` for a key without its numbers, an RSA modulus
    ///   under 2048 bits, or a P-256 point of the wrong size.
    func subjectPublicKeyInfo() throws -> [UInt8] {
        switch kty {
        case "RSA":
            guard let n = n.flatMap(Base64URL.decode), let e = e.flatMap(Base64URL.decode), !e.isEmpty else {
                throw IDTokenError.unusableKey("an RSA key without n or e")
            }
            let modulusBits = n.drop { $0 == 0 }.count * 8
            guard modulusBits >= 2048 else { throw IDTokenError.unusableKey("an RSA key of \(modulusBits) bits") }
            let key = DER.sequence(DER.unsignedInteger(n), DER.unsignedInteger(e))
            return DER.sequence(DER.sequence(DER.rsaEncryption, DER.null), DER.bitString(key))
        case "EC":
            guard crv == "P-256", let x = x.flatMap(Base64URL.decode), let y = y.flatMap(Base64URL.decode),
                x.count == 32, y.count == 32
            else { throw IDTokenError.unusableKey("an EC key that is not a P-256 point") }
            return DER.sequence(DER.sequence(DER.ecPublicKey, DER.prime256v1), DER.bitString([0x04] + x + y))
        default:
            throw IDTokenError.unusableKey("a key of type \(kty)")
        }
    }
}

/// An issuer's public keys (`{"keys": [...]}`, RFC 7517 §5).
struct JSONWebKeySet: Decodable, Sendable, Equatable {
    var keys: [JSONWebKey]

    /// The key that verifies a token of algorithm `alg` with key id `kid`: the one of that id,
    /// or without an id the only key of that algorithm.
    func key(alg: String, kid: String?) -> JSONWebKey? {
        let usable = keys.filter { $0.algorithm == alg && ($0.use == nil || $0.use == "sig") }
        if let kid { return usable.first { $0.kid == kid } }
        return usable.count == 1 ? usable[0] : nil
    }
}
