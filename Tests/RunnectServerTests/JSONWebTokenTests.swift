import Foundation
import RunnectStore
import Testing

@testable import RunnectServer

@Suite("JSON Web Tokens (compact JWS, HS256)")
struct JSONWebTokenTests {
    /// RFC 7515 Appendix A.1: a JWS signed with HMAC SHA-256, its key as a JWK (`k`).
    static let rfcKey = Base64URL.decode(
        "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow")!
    static let rfcToken =
        "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9"
        + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
        + ".dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"

    @Test func theRFCExampleVerifies() throws {
        let token = try JSONWebToken(compact: Self.rfcToken)
        #expect(token.header.alg == "HS256")
        #expect(token.isSignedHS256(key: Self.rfcKey))
        struct Claims: Decodable {
            var iss: String
            var exp: Int
        }
        let claims = try token.claims(as: Claims.self)
        #expect(claims.iss == "joe" && claims.exp == 1_300_819_380)
    }

    @Test func oneChangedByteFailsTheSignature() throws {
        var parts = Self.rfcToken.split(separator: ".").map(String.init)
        // Another claim set, same signature.
        parts[1] = Base64URL.encode(Array(#"{"iss":"joe","exp":1300819380,"http://example.com/is_root":false}"#.utf8))
        #expect(!(try JSONWebToken(compact: parts.joined(separator: "."))).isSignedHS256(key: Self.rfcKey))
        var key = Self.rfcKey
        key[0] ^= 1
        #expect(!(try JSONWebToken(compact: Self.rfcToken)).isSignedHS256(key: key))
    }

    @Test func signingVerifiesAndHMACMatchesRFC4231() throws {
        let key = Array("0123456789abcdef0123456789abcdef".utf8)
        let text = try JSONWebToken.signedHS256(claims: ["sub": "access_token"], key: key)
        let token = try JSONWebToken(compact: text)
        #expect(token.isSignedHS256(key: key))
        // RFC 4231 test case 2: HMAC-SHA-256 of "what do ya want for nothing?" under "Jefe".
        let mac = MessageAuthentication.hmacSHA256(
            key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(ContentHash.hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test(arguments: ["", "a.b", "a.b.c.d", "e30.e30.!!", "e30=.e30.AA", "bm90IGpzb24.e30.AA", "e30.W10.AA"])
    func malformedTokensAreRefused(_ text: String) {
        #expect(throws: JSONWebTokenError.malformed) { try JSONWebToken(compact: text) }
    }

    @Test func aTokenOverSixteenKilobytesIsNoToken() throws {
        let header = Base64URL.encode(Array(#"{"alg":"HS256"}"#.utf8))
        // Claims padded with JSON whitespace: still JSON, only long.
        let padded = Base64URL.encode(Array(repeating: UInt8(ascii: " "), count: 13_000) + Array("{}".utf8))
        let text = "\(header).\(padded).AA"
        #expect(text.utf8.count > JSONWebToken.maximumLength)
        #expect(throws: JSONWebTokenError.malformed) { try JSONWebToken(compact: text) }
        // The same token under the bound reads.
        let short = Base64URL.encode(Array(repeating: UInt8(ascii: " "), count: 100) + Array("{}".utf8))
        #expect(throws: Never.self) { try JSONWebToken(compact: "\(header).\(short).AA") }
    }

    @Test func algNoneIsNeverSigned() throws {
        let header = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8))
        let claims = Base64URL.encode(Array(#"{"sub":"access_token","userId":"1","iat":0,"exp":9999999999}"#.utf8))
        let token = try JSONWebToken(compact: "\(header).\(claims).")
        #expect(!token.isSignedHS256(key: Array(repeating: 7, count: 32)))
    }
}
