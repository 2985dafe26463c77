import Foundation
import Hummingbird
import Logging

/// A stand-in for Kakao's API on a free loopback port, answering as Kakao documents it: token
/// info (`id`, `app_id`) and user info (`id`, `kakao_account.email`) for the tokens it knows,
/// 401 for any other. Runs while `body` does.
enum KakaoStandIn {
    struct User: Sendable {
        var id: Int64
        var appID: Int64
        var email: String?
    }

    static func with<T: Sendable>(
        users: [String: User], _ body: @Sendable (URL) async throws -> T
    ) async throws -> T {
        let router = Router()
        router.get("v1/user/access_token_info") { request, _ -> Response in
            guard let user = user(request, users) else { return unauthorized() }
            return json(#"{"id":\#(user.id),"expires_in":7199,"app_id":\#(user.appID)}"#)
        }
        router.get("v2/user/me") { request, _ -> Response in
            guard let user = user(request, users) else { return unauthorized() }
            let account =
                user.email.map {
                    #","kakao_account":{"has_email":true,"is_email_valid":true,"is_email_verified":true,"email":"\#($0)"}"#
                } ?? ""
            return json(#"{"id":\#(user.id),"connected_at":"2026-11-29T00:00:00Z"\#(account)}"#)
        }
        let (port, portContinuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "kakao-stand-in")
        logger.logLevel = .error
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            }, logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            var iterator = port.makeAsyncIterator()
            guard let bound = await iterator.next() else { throw CancellationError() }
            defer { group.cancelAll() }
            return try await body(URL(string: "http://127.0.0.1:\(bound)")!)
        }
    }

    private static func user(_ request: Request, _ users: [String: User]) -> User? {
        guard let value = request.headers[.authorization], value.hasPrefix("Bearer ") else { return nil }
        return users[String(value.dropFirst(7))]
    }

    private static func unauthorized() -> Response {
        var response = json(#"{"msg":"this access token does not exist","code":-401}"#)
        response.status = .unauthorized
        return response
    }

    private static func json(_ text: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json;charset=UTF-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
