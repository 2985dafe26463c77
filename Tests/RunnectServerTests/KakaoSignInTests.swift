import Foundation
import Testing

@testable import RunnectServer

@Suite("Kakao sign-in, against a stand-in for Kakao's API")
struct KakaoSignInTests {
    static let users: [String: KakaoStandIn.User] = [
        "token-minji": .init(id: 3_141_592_653, appID: 1234, email: "minji@example.com"),
        "token-no-email": .init(id: 2_718_281_828, appID: 1234, email: nil),
        "token-other-app": .init(id: 1_618_033_988, appID: 9999, email: "x@example.com"),
    ]

    @Test func aTokenOfThisAppGivesItsUser() async throws {
        let (minji, noEmail) = try await KakaoStandIn.with(users: Self.users) { base in
            let kakao = KakaoSignIn(appID: 1234, baseURL: base)
            return (
                try await kakao.verify(accessToken: "token-minji"),
                try await kakao.verify(accessToken: "token-no-email")
            )
        }
        #expect(minji == .init(userID: 3_141_592_653, email: "minji@example.com"))
        #expect(noEmail == .init(userID: 2_718_281_828, email: nil))
    }

    @Test func anotherAppsOrAnUnknownTokenIsRefused() async throws {
        try await KakaoStandIn.with(users: Self.users) { base in
            let kakao = KakaoSignIn(appID: 1234, baseURL: base)
            await #expect(throws: KakaoSignInError.otherApp(9999)) {
                try await kakao.verify(accessToken: "token-other-app")
            }
            await #expect(throws: KakaoSignInError.invalidToken) { try await kakao.verify(accessToken: "token-nobody") }
            // Never sent: a token with a line break or space would split the header.
            await #expect(throws: KakaoSignInError.invalidToken) {
                try await kakao.verify(accessToken: "a\r\nX-Evil: 1")
            }
            await #expect(throws: KakaoSignInError.invalidToken) { try await kakao.verify(accessToken: "") }
        }
    }

    @Test func kakaoDownIsUnavailableNotInvalid() async throws {
        // A port nothing listens on (the stand-in's, after it stopped).
        let closed = try await KakaoStandIn.with(users: [:]) { $0 }
        let kakao = KakaoSignIn(appID: 1234, baseURL: closed)
        let error = await #expect(throws: KakaoSignInError.self) { try await kakao.verify(accessToken: "token-minji") }
        if case .unavailable = error {} else { Issue.record("expected .unavailable, got \(String(describing: error))") }
    }
}
