import CLibCrypto
import Foundation

/// Verifies an RS256 (RSASSA-PKCS1-v1_5 with SHA-256) or ES256 (ECDSA P-256 with SHA-256)
/// signature by the system's libcrypto, the key given as a DER SubjectPublicKeyInfo.
enum SignatureVerifier {
    /// Whether `signature` is `alg`'s signature of `message` under the key. ES256's signature is
    /// JWS's 64 bytes, `r` then `s` (RFC 7518 §3.4); libcrypto takes them as DER.
    static func verify(alg: String, signature: [UInt8], message: [UInt8], subjectPublicKeyInfo spki: [UInt8]) -> Bool {
        let signatureDER: [UInt8]
        switch alg {
        case "RS256":
            signatureDER = signature
        case "ES256":
            guard signature.count == 64 else { return false }
            signatureDER = DER.sequence(
                DER.unsignedInteger(Array(signature[0..<32])), DER.unsignedInteger(Array(signature[32..<64])))
        default:
            return false
        }
        guard let key = publicKey(spki) else { return false }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        return signatureDER.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { msg in
                EVP_DigestVerify(context, sig.baseAddress, sig.count, msg.baseAddress, msg.count) == 1
            }
        }
    }

    private static func publicKey(_ spki: [UInt8]) -> OpaquePointer? {
        spki.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
    }
}
