import Testing

@testable import RunnectPostgres

/// The references come from Python's hashlib and hmac (independent of libcrypto's use here):
/// `pbkdf2_hmac('sha256', password, salt, n)`, then the RFC 5802 keys. That PostgreSQL accepts
/// the verifiers is checked by logging in with them (PostgresAdministrationTests).
@Suite struct SCRAMVerifierTests {
    let salt: [UInt8] = Array(0..<16)

    @Test(arguments: [
        (
            "pencil", 4096,
            "SCRAM-SHA-256$4096:AAECAwQFBgcICQoLDA0ODw==$zHCdol2044/ZyWzPLi7oxApCkamKw9Z+E4U/QApd/5Y="
                + ":dd5peBOitVnLNFu7VmwP+HiDaaw4OUCv396eVCWhYiE="
        ),
        // A Unicode password is its UTF-8 bytes.
        (
            "비밀번호 ümlaut", 10,
            "SCRAM-SHA-256$10:AAECAwQFBgcICQoLDA0ODw==$ygfLsrGKIqchBTnQP14+I4mLCMFP1Ic5jxP3t4IAxcY="
                + ":rzNfsyWyXmbmf3jNI9BPlXgTr9xogLgGMDzGJ+LeNso="
        ),
    ])
    func matchesAnIndependentComputation(password: String, iterations: Int, expected: String) throws {
        #expect(try SCRAMVerifier(password: password, salt: salt, iterations: iterations).text == expected)
    }

    @Test func eachVerifierHasItsOwnSalt() throws {
        let first = try SCRAMVerifier(password: "pencil")
        let second = try SCRAMVerifier(password: "pencil")
        #expect(first.salt != second.salt)
        #expect(first.iterations == 4096)
        // Only characters that are safe inside a SQL string literal.
        #expect(first.text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+/=$:-".contains($0)) })
    }
}
