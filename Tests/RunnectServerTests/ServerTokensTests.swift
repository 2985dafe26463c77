import Foundation
import Testing

@testable import RunnectServer

@Suite("The server's own tokens")
struct ServerTokensTests {
    let tokens = ServerTokens(secret: try! TokenSecret(bytes: Array(repeating: 0x5A, count: 32), source: "test"))
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func anAccessTokenNamesItsRunnerForTwoHours() throws {
        let text = try tokens.issue(.access, runnerID: 42, now: now)
        let verified = try tokens.verify(text, as: .access, now: now.addingTimeInterval(7199))
        #expect(verified.runnerID == 42)
        #expect(verified.expires == now.addingTimeInterval(7200))
        #expect(throws: JSONWebTokenError.expired) {
            try tokens.verify(text, as: .access, now: now.addingTimeInterval(7200))
        }
        // Refreshing accepts an authentic token past its time.
        #expect(
            try tokens.verify(text, as: .access, allowExpired: true, now: now.addingTimeInterval(1e6)).runnerID == 42)
    }

    @Test func aRefreshTokenLivesFourteenDaysAndIsNeverAnAccessToken() throws {
        let refresh = try tokens.issue(.refresh, runnerID: 7, now: now)
        #expect(try tokens.verify(refresh, as: .refresh, now: now.addingTimeInterval(14 * 86400 - 1)).runnerID == 7)
        #expect(throws: JSONWebTokenError.wrongKind) { try tokens.verify(refresh, as: .access, now: now) }
        let access = try tokens.issue(.access, runnerID: 7, now: now)
        #expect(throws: JSONWebTokenError.wrongKind) { try tokens.verify(access, as: .refresh, now: now) }
        // Two sign-ins in one second still give two refresh tokens.
        #expect(try tokens.issue(.refresh, runnerID: 7, now: now) != refresh)
    }

    @Test func anotherKeyOrAnEditedRunnerIsRefused() throws {
        let text = try tokens.issue(.access, runnerID: 5, now: now)
        let other = ServerTokens(secret: try TokenSecret(bytes: Array(repeating: 0x5B, count: 32), source: "test"))
        #expect(throws: JSONWebTokenError.badSignature) { try other.verify(text, as: .access, now: now) }

        var parts = text.split(separator: ".").map(String.init)
        var claims = try JSONDecoder().decode(ServerTokens.Claims.self, from: Data(Base64URL.decode(parts[1])!))
        claims.userId = "6"
        parts[1] = Base64URL.encode(try JSONEncoder().encode(claims))
        #expect(throws: JSONWebTokenError.badSignature) {
            try tokens.verify(parts.joined(separator: "."), as: .access, now: now)
        }
    }

    @Test func aTokenSignedWithAnotherAlgorithmIsRefused() throws {
        let claims = ServerTokens.Claims(sub: "access_token", userId: "1", iat: 0, exp: 9_999_999_999)
        let body = Base64URL.encode(try JSONEncoder().encode(claims))
        for alg in ["none", "HS512", "RS256"] {
            let header = Base64URL.encode(Array(#"{"alg":"\#(alg)","typ":"JWT"}"#.utf8))
            #expect(throws: JSONWebTokenError.badSignature) {
                try tokens.verify("\(header).\(body).", as: .access, now: now)
            }
        }
    }

    @Test func aSecretIsThirtyTwoBytesAtLeast() throws {
        #expect(throws: TokenSecretError.tooShort(bytes: 31, source: "x")) {
            try TokenSecret(bytes: Array(repeating: 1, count: 31), source: "x")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "runnect-secret-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("secret")
        // 32 bytes and one newline: the newline is not part of the secret.
        try Data((String(repeating: "k", count: 32) + "\n").utf8).write(to: file)
        #expect(try TokenSecret(file: file.path).bytes == Array(repeating: UInt8(ascii: "k"), count: 32))
        try Data((String(repeating: "k", count: 31) + "\n").utf8).write(to: file)
        #expect(throws: TokenSecretError.tooShort(bytes: 31, source: file.path)) { try TokenSecret(file: file.path) }
    }
}
