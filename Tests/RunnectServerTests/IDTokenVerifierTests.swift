import Foundation
import RunnectStore
import RunnectTestSupport
import Testing

@testable import RunnectServer

/// ID tokens signed by PyJWT over pyca/cryptography (`scripts/make_id_tokens.py`), an
/// implementation that shares nothing with the server's, checked by the server's verifier.
@Suite(
    "Sign-in ID tokens (RS256, ES256)",
    .requires(IDTokenKeys.isAvailable, "python3 with pyjwt and cryptography (scripts/setup.sh --test installs them)"))
struct IDTokenVerifierTests {
    let provider = try! OIDCProvider(
        parsing: "APPLE=https://appleid.apple.com,kr.runnect.app|kr.runnect.dev,\(IDTokenKeys.folder.path)/jwks.json")
    let now = Date()

    func claims(
        iss: String = "https://appleid.apple.com", aud: Any = "kr.runnect.app", exp: Double? = nil,
        sub: String = "001234.abcd"
    ) -> String {
        let object: [String: Any] = [
            "iss": iss, "aud": aud, "sub": sub, "exp": exp ?? now.timeIntervalSince1970 + 600,
            "iat": now.timeIntervalSince1970, "email": "runner@example.com",
        ]
        return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    func verify(_ token: String, keySet: String = "jwks.json") throws -> IDTokenVerifier.Identity {
        let data = try Data(contentsOf: IDTokenKeys.folder.appendingPathComponent(keySet))
        return try IDTokenVerifier(provider: provider).verify(
            token, keys: try JSONDecoder().decode(JSONWebKeySet.self, from: data), now: now)
    }

    @Test(arguments: [("rsa1", "RS256"), ("ec1", "ES256")])
    func aTokenOfTheIssuerVerifies(key: String, alg: String) throws {
        let token = try IDTokenKeys.sign(key: key, alg: alg, kid: key, claims: claims())
        let identity = try verify(token)
        #expect(
            identity == .init(issuer: "https://appleid.apple.com", subject: "001234.abcd", email: "runner@example.com"))
        // An audience list naming the app is the app's too.
        let listed = try IDTokenKeys.sign(
            key: key, alg: alg, kid: key, claims: claims(aud: ["other", "kr.runnect.dev"]))
        #expect(try verify(listed).subject == "001234.abcd")
    }

    @Test func expiredWrongIssuerOrWrongAudienceIsRefused() throws {
        let expired = try IDTokenKeys.sign(
            key: "rsa1", alg: "RS256", kid: "rsa1", claims: claims(exp: now.timeIntervalSince1970 - 3600))
        #expect(throws: IDTokenError.expired) { try verify(expired) }
        let issuer = try IDTokenKeys.sign(
            key: "ec1", alg: "ES256", kid: "ec1", claims: claims(iss: "https://evil.example"))
        #expect(throws: IDTokenError.wrongIssuer("https://evil.example")) { try verify(issuer) }
        let audience = try IDTokenKeys.sign(key: "ec1", alg: "ES256", kid: "ec1", claims: claims(aud: "com.other.app"))
        #expect(throws: IDTokenError.wrongAudience) { try verify(audience) }
    }

    @Test func anotherKeyUnderTheSameIDFailsTheSignature() throws {
        let forged = try IDTokenKeys.sign(key: "rsa1-other", alg: "RS256", kid: "rsa1", claims: claims())
        #expect(throws: IDTokenError.badSignature) { try verify(forged) }
        // One byte of a good token's claims changed.
        let good = try IDTokenKeys.sign(key: "ec1", alg: "ES256", kid: "ec1", claims: claims())
        var parts = good.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(claims(sub: "someone.else").utf8))
        #expect(throws: IDTokenError.badSignature) { try verify(parts.joined(separator: ".")) }
    }

    @Test func onlyRS256AndES256AreAccepted() throws {
        let body = Base64URL.encode(Array(claims().utf8))
        // The issuer's public keys as an HMAC secret: the algorithm-confusion forgery.
        let published = try Data(contentsOf: IDTokenKeys.folder.appendingPathComponent("jwks.json"))
        for alg in ["none", "HS256", "RS512", "PS256"] {
            let header = Base64URL.encode(Array(#"{"alg":"\#(alg)","kid":"rsa1"}"#.utf8))
            let input = "\(header).\(body)"
            let mac = MessageAuthentication.hmacSHA256(key: [UInt8](published), message: Array(input.utf8))
            #expect(throws: IDTokenError.algorithmNotAllowed(alg)) { try verify("\(input).\(Base64URL.encode(mac))") }
        }
    }

    @Test func anUnknownKeyIDOrAWeakKeyIsRefused() throws {
        let unknown = try IDTokenKeys.sign(key: "ec1", alg: "ES256", kid: "ec9", claims: claims())
        #expect(throws: IDTokenError.unknownKey("ec9")) { try verify(unknown) }
        let weak = try IDTokenKeys.sign(key: "weak1", alg: "RS256", kid: "weak1", claims: claims())
        #expect(throws: IDTokenError.unusableKey("an RSA key of 1024 bits")) {
            try verify(weak, keySet: "jwks-weak.json")
        }
    }
}

/// The suite's keys, made once in a temporary folder by `scripts/make_id_tokens.py`.
enum IDTokenKeys {
    static let script = PackageFolder.url("scripts/make_id_tokens.py")
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "runnect-idtokens-\(UUID().uuidString)")
    static let isAvailable: Bool = {
        guard ExternalTool.pythonImports("jwt", "cryptography") else { return false }
        // The keys go with the test process.
        atexit { try? FileManager.default.removeItem(at: IDTokenKeys.folder) }
        return (try? run(["keys", folder.path])) != nil
    }()

    static func sign(key: String, alg: String, kid: String, claims: String) throws -> String {
        try run(["sign", folder.path, key, alg, kid, claims]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func run(_ arguments: [String]) throws -> String {
        String(decoding: try ExternalTool.output(of: "python3", [script.path] + arguments), as: UTF8.self)
    }
}

@Suite("Key sets, read and kept")
struct JSONWebKeySetCacheTests {
    @Test func aFileIsReadOnceAndAgainForAnUnknownKeyAtMostOnceAMinute() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-jwks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("jwks.json")
        try Data(#"{"keys":[{"kty":"EC","crv":"P-256","kid":"a","x":"AA","y":"AA"}]}"#.utf8).write(to: file)
        let cache = JSONWebKeySetCache(.file(file.path))
        #expect(try await cache.keys().keys.map(\.kid) == ["a"])
        // Rotated on disk: the kept set still answers, even for an unknown key, within the minute.
        try Data(#"{"keys":[{"kty":"EC","crv":"P-256","kid":"b","x":"AA","y":"AA"}]}"#.utf8).write(to: file)
        #expect(try await cache.keys().keys.map(\.kid) == ["a"])
        #expect(try await cache.keys(unknownKey: true).keys.map(\.kid) == ["a"])
    }

    @Test func aMissingOrBadSetSaysWhy() async throws {
        await #expect(throws: IDTokenError.self) {
            try await JSONWebKeySetCache(.file("/nonexistent/jwks.json")).keys()
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("runnect-jwks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("jwks.json")
        try Data("not json".utf8).write(to: file)
        await #expect(throws: IDTokenError.keySetUnavailable("not a JSON Web Key Set")) {
            try await JSONWebKeySetCache(.file(file.path)).keys()
        }
    }
}
