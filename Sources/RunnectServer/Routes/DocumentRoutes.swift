import Foundation
import Hummingbird

/// `GET /api/openapi.json`: the OpenAPI 3.1 document of every route, as built in.
struct DocumentRoutes: Sendable {
    func add(to router: Router<RunnectRequestContext>) {
        router.get("api/openapi.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_json)))
        }
    }
}
