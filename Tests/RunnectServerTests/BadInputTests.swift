import Foundation
import RunnectStore
import RunnectTestSupport
import Testing

@testable import RunnectServer

/// What a client gets wrong is a 4xx in the envelope with a message naming the fix, and nothing
/// is stored: malformed JSON, a wrong type, a missing field or part, bodies over their limits.
@Suite("Bad input over HTTP")
struct BadInputTests {
    @Test func mistakesAre4xxAndStoreNothing() async throws {
        try await ServerStoreKind.sqlite.withStore { store, folder in
            let configuration = ServerConfiguration(
                tokenSecret: TestServer.secret, imagesFolder: folder.appendingPathComponent("images").path)
            let pair = try await TokenPair.issue(forRunnerNamed: "minji", secret: TestServer.secret, store: store)
            try await TestServer.with(store: store, configuration: configuration) { base in
                let app = AppClient(base: base).signedIn(access: pair.accessToken, refresh: pair.refreshToken)
                func message(_ answer: AppClient.Answer) -> String { answer.json["message"] as? String ?? "" }

                let malformed = try await app.request(
                    "PATCH", "/api/user", body: Data("{\"nickname\": ".utf8), contentType: "application/json")
                malformed.expect(http: 400)
                let wrongType = try await app.request("PATCH", "/api/user", json: ["nickname": 7])
                wrongType.expect(http: 400)
                #expect(message(wrongType).contains("nickname must be a string"))
                let missing = try await app.request("POST", "/api/scrap", json: ["scrapTF": true])
                missing.expect(http: 400)
                #expect(message(missing).contains("publicCourseId is missing"))
                try await app.request("POST", "/api/auth", json: ["token": "x", "provider": "VISITOR"]).expect(
                    http: 400)
                try await app.request("PUT", "/api/record", json: ["recordIdList": []]).expect(http: 400)
                try await app.request("GET", "/api/course/detail/abc").expect(http: 400)
                try await app.request("GET", "/api/course/detail/-1").expect(http: 400)

                // Over the JSON limit: 413, read no further than the limit.
                let big = Data(("{\"nickname\": \"" + String(repeating: "a", count: 1_100_000) + "\"}").utf8)
                try await app.request("PATCH", "/api/user", body: big, contentType: "application/json").expect(
                    http: 413)

                // A multipart body without its image, or with an image over 5 MiB.
                let boundary = "b0undary"
                func multipart(_ parts: [(String, Data)]) -> Data {
                    var body = Data()
                    for (name, bytes) in parts {
                        body.append(
                            Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n".utf8))
                        body.append(bytes)
                        body.append(Data("\r\n".utf8))
                    }
                    body.append(Data("--\(boundary)--\r\n".utf8))
                    return body
                }
                let data = try JSONSerialization.data(withJSONObject: AppDay.drawing(title: "t", seed: 0))
                let noImage = try await app.request(
                    "POST", "/api/course", body: multipart([("data", data)]),
                    contentType: "multipart/form-data; boundary=\(boundary)")
                noImage.expect(http: 400)
                #expect(message(noImage).contains("image"))
                let huge = try await app.request(
                    "POST", "/api/course",
                    body: multipart([
                        ("image", Data([0xFF, 0xD8, 0xFF]) + Data(count: 6 * 1024 * 1024)), ("data", data),
                    ]),
                    contentType: "multipart/form-data; boundary=\(boundary)")
                huge.expect(http: 413)
                // A path over 10,000 points: 400 naming the limit; at 100,000 the part is over 1 MiB: 413.
                for (points, status) in [(10_001, 400), (100_000, 413)] {
                    var long = AppDay.drawing(title: "long", seed: 0)
                    long["path"] = (0..<points).map { ["latitude": 37.5 + Double($0) * 1e-6, "longitude": 127.0] }
                    let answer = try await app.request(
                        "POST", "/api/course",
                        body: multipart([
                            ("image", Data([0xFF, 0xD8, 0xFF])),
                            ("data", try JSONSerialization.data(withJSONObject: long)),
                        ]),
                        contentType: "multipart/form-data; boundary=\(boundary)")
                    answer.expect(http: status)
                    if status == 400 { #expect(message(answer).contains("at most 10000 points"), "\(message(answer))") }
                }
                let truncated = try await app.request(
                    "POST", "/api/course",
                    body: Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"\r\n\r\nabc".utf8),
                    contentType: "multipart/form-data; boundary=\(boundary)")
                truncated.expect(http: 400)
            }
            // Nothing stored, no file left behind but the folder.
            #expect(try await store.summary().courses == 0)
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("images").path)
            #expect(left.isEmpty, "\(left)")
        }
    }
}
