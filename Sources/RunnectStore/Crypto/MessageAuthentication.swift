import CLibCrypto
import Foundation

/// HMAC-SHA-256 (RFC 2104) and its comparison, by the system's OpenSSL libcrypto: PostgreSQL's
/// SCRAM verifiers (`RunnectPostgres`) and the server's own tokens (`RunnectServer`) sign with
/// this one function.
package enum MessageAuthentication {
    /// The 32-byte HMAC-SHA-256 of `message` under `key` (`EVP_Q_mac`, OpenSSL 3's one-shot MAC;
    /// the older `HMAC()` is deprecated there).
    package static func hmacSHA256(key: [UInt8], message: some Collection<UInt8>) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length = 0
        let bytes = Array(message)
        // An empty key or message still needs a valid pointer.
        let keyBytes = key.isEmpty ? [0] : key
        let done = keyBytes.withUnsafeBytes { keyPointer in
            bytes.withUnsafeBufferPointer { messagePointer in
                EVP_Q_mac(
                    nil, "HMAC", nil, "SHA256", nil, keyPointer.baseAddress, key.count,
                    messagePointer.baseAddress, messagePointer.count, &output, output.count, &length)
            }
        }
        // Fails only when memory runs out or the default provider cannot load (a broken
        // openssl.cnf): nothing a caller could recover from.
        guard done != nil, length == 32 else {
            fatalError("OpenSSL: HMAC-SHA-256 is unavailable (EVP_Q_mac failed; check the OpenSSL configuration)")
        }
        return output
    }

    /// The 32-byte SHA-256 digest of `bytes`.
    package static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var hasher = SHA256Hasher()
        Array(bytes).withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }

    /// Whether two byte strings are equal, in a time that depends on their length only (a MAC
    /// compared byte by byte with an early exit tells an attacker how much of it is right).
    package static func equalInConstantTime(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        guard first.count == second.count else { return false }
        guard !first.isEmpty else { return true }
        return first.withUnsafeBytes { a in
            second.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, first.count) == 0 }
        }
    }
}
