import CLibCrypto
import Foundation
import RunnectStore

/// A SCRAM-SHA-256 password verifier in PostgreSQL's form
/// (`SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`, RFC 5802 and 7677), computed
/// here as `psql`'s `\password` does: `CREATE ROLE … PASSWORD '<verifier>'` then never sends the
/// password itself, so it appears in no statement the server may log.
///
/// The password is used as its UTF-8 bytes (PostgreSQL applies SASLprep where it can and falls
/// back to the raw bytes; the two agree for passwords without unusual Unicode).
struct SCRAMVerifier: Sendable, Equatable {
    let iterations: Int
    let salt: [UInt8]
    let storedKey: [UInt8]
    let serverKey: [UInt8]

    /// PostgreSQL's default (`scram_iterations`).
    static let defaultIterations = 4096

    /// The verifier of `password` with a fresh random 16-byte salt.
    init(password: String, iterations: Int = defaultIterations) throws {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try self.init(password: password, salt: salt, iterations: iterations)
    }

    /// The verifier of `password` with a given salt (tests compare with known verifiers).
    init(password: String, salt: [UInt8], iterations: Int) throws {
        let salted = try Self.pbkdf2(password: Array(password.utf8), salt: salt, iterations: iterations)
        let clientKey = MessageAuthentication.hmacSHA256(key: salted, message: Array("Client Key".utf8))
        self.iterations = iterations
        self.salt = salt
        storedKey = MessageAuthentication.sha256(clientKey)
        serverKey = MessageAuthentication.hmacSHA256(key: salted, message: Array("Server Key".utf8))
    }

    /// The text PostgreSQL stores in `pg_authid.rolpassword`.
    var text: String {
        func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
        return "SCRAM-SHA-256$\(iterations):\(base64(salt))$\(base64(storedKey)):\(base64(serverKey))"
    }

    struct CryptoError: Error, CustomStringConvertible {
        let description: String
    }

    private static func pbkdf2(password: [UInt8], salt: [UInt8], iterations: Int) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        let status = password.withUnsafeBufferPointer { pass in
            pass.withMemoryRebound(to: CChar.self) { pass in
                PKCS5_PBKDF2_HMAC(
                    pass.baseAddress, Int32(pass.count), salt, Int32(salt.count), Int32(iterations), EVP_sha256(), 32,
                    &output)
            }
        }
        guard status == 1 else { throw CryptoError(description: "PBKDF2 failed in libcrypto") }
        return output
    }

}
