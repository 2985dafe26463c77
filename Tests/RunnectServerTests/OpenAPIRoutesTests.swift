import Foundation
import Hummingbird
import Logging
import RunnectStore
import RunnectTestSupport
import Testing

@testable import RunnectServer

/// The OpenAPI document and the server's routes say the same: every route is documented, every
/// documented operation is a route (path parameters compared by position, not name).
@Suite("The OpenAPI document and the routes")
struct OpenAPIRoutesTests {
    @Test func everyRouteIsDocumentedAndEveryOperationIsARoute() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await CourseStore(path: folder.appendingPathComponent("s.sqlite").path, user: "t")
            let server = RunnectServer(
                store: store,
                configuration: ServerConfiguration(
                    tokenSecret: TestServer.secret, imagesFolder: folder.appendingPathComponent("images").path),
                logger: Logger(label: "t"))
            let router = server.router()
            try router.validate()
            let routes = Set(router.routes.map { "\($0.method.rawValue) \(Self.normalized("\($0.path)"))" })

            let document = try JSONSerialization.jsonObject(with: Data(PackageResources.openapi_json)) as? [String: Any]
            let paths = try #require(document?["paths"] as? [String: [String: Any]])
            var documented = Set<String>()
            for (path, item) in paths {
                for method in item.keys where ["get", "post", "put", "patch", "delete"].contains(method) {
                    documented.insert("\(method.uppercased()) \(Self.normalized(path))")
                }
            }
            #expect(routes.subtracting(documented).sorted() == [], "routes not in the document")
            #expect(documented.subtracting(routes).sorted() == [], "documented operations with no route")
            #expect(routes.count >= 33)
        }
    }

    /// `/api/course/{courseId}` and `/api/course/:id` alike: `/api/course/{}`.
    static func normalized(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map { part -> String in
            part.hasPrefix("{") || part.hasPrefix(":") ? "{}" : String(part)
        }
        let joined = parts.joined(separator: "/")
        return joined.hasPrefix("/") ? joined : "/" + joined
    }
}
