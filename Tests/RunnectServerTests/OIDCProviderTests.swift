import Foundation
import Testing

@testable import RunnectServer

@Suite("--oidc values")
struct OIDCProviderTests {
    @Test func aValueSplitsOnTheFirstEqualsThenOnCommas() throws {
        let apple = try OIDCProvider(parsing: "apple=https://appleid.apple.com,kr.runnect.app,/etc/runnect/apple.json")
        #expect(apple.name == "APPLE")
        #expect(apple.issuers == ["https://appleid.apple.com"])
        #expect(apple.audiences == ["kr.runnect.app"])
        #expect(apple.keySet == .file("/etc/runnect/apple.json"))
        let google = try OIDCProvider(
            parsing:
                "GOOGLE=https://accounts.google.com|accounts.google.com,a.apps.googleusercontent.com|b,https://www.googleapis.com/oauth2/v3/certs"
        )
        #expect(google.issuers == ["https://accounts.google.com", "accounts.google.com"])
        #expect(google.audiences == ["a.apps.googleusercontent.com", "b"])
        #expect(google.keySet == .url(URL(string: "https://www.googleapis.com/oauth2/v3/certs")!))
        // RUNNECT_OIDC: the same values, separated by spaces.
        let both = try OIDCProvider.parsingList(
            "APPLE=https://appleid.apple.com,kr.runnect.app,a.json  GOOGLE=https://accounts.google.com,b,b.json")
        #expect(both.map(\.name) == ["APPLE", "GOOGLE"])
    }

    @Test(arguments: [
        ("APPLE", OIDCProviderError.form("APPLE")),
        ("APPLE=iss,aud", OIDCProviderError.form("APPLE=iss,aud")),
        ("APPLE=,aud,keys.json", OIDCProviderError.missing("an issuer", "APPLE=,aud,keys.json")),
        ("APPLE=iss,,keys.json", OIDCProviderError.missing("an audience", "APPLE=iss,,keys.json")),
        ("APPLE=iss,aud,", OIDCProviderError.missing("a JWKS file or URL", "APPLE=iss,aud,")),
        ("KAKAO=iss,aud,keys.json", OIDCProviderError.unknownProvider("KAKAO")),
        ("APPLE=iss,aud,http://keys.example/jwks", OIDCProviderError.insecureURL("http://keys.example/jwks")),
    ])
    func aWrongValueSaysWhatIsWrong(text: String, error: OIDCProviderError) {
        #expect(throws: error) { try OIDCProvider(parsing: text) }
    }

    @Test func plainHTTPOnlyToLoopback() throws {
        #expect(
            try OIDCProvider(parsing: "APPLE=iss,aud,http://127.0.0.1:9/jwks").keySet
                == .url(URL(string: "http://127.0.0.1:9/jwks")!))
    }
}
