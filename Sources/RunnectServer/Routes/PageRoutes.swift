import Foundation
import HTTPTypes
import Hummingbird

/// `GET /`: the discovery page, a club's view of the shared courses over the live API (search,
/// near-me, paging, downloads, scraps, rankings, uploads of watch files); `GET /page/{name}`:
/// its script, stylesheet and icon; `GET /page/preview/{courseId}`: a shared course's preview,
/// the small PNG of its path the cards show whatever map image the app uploaded (a snapshot
/// may weigh up to 5 MiB; ten previews weigh about 140 KB). No sign-in: the page asks the API as a visitor until a
/// runner pastes a token, which it keeps in the tab's session storage only.
///
/// Every answer carries a strict Content-Security-Policy (scripts, styles, images and requests
/// from this server only, no inline script or style, no framing, no form posts, no `<base>`), so
/// that a runner's text can only ever be text; an entity tag, with `If-None-Match` answered
/// 304; and `Cache-Control`: the page is revalidated on every visit, a file asked for with its
/// current version (`?v=`, as the page links it) is kept for a year.
struct PageRoutes: Sendable {
    let services: ServerServices
    var configuration: ServerConfiguration { services.configuration }

    static let contentSecurityPolicyField = HTTPField.Name("Content-Security-Policy")!
    static let referrerPolicyField = HTTPField.Name("Referrer-Policy")!
    static let permissionsPolicyField = HTTPField.Name("Permissions-Policy")!

    /// `Cache-Control` of a file asked for with its current version.
    static let immutable = "public, max-age=31536000, immutable"

    func add(to router: Router<RunnectRequestContext>) {
        let policy = Self.contentSecurityPolicy(publicURL: configuration.publicURL)
        router.get("/") { request, _ in
            Self.response(PageAsset.page, to: request, cacheControl: "no-cache", policy: policy)
        }
        router.get("page/:name") { request, context in
            guard let name = context.parameters.get("name"), let file = PageAsset.files[name] else {
                throw APIError.notFound("no such file of the page (page.js, page.css, icon.svg)")
            }
            let current = request.uri.queryParameters.get("v") == file.version
            return Self.response(file, to: request, cacheControl: current ? Self.immutable : "no-cache", policy: policy)
        }
        router.get("page/preview/:courseId") { _, context in
            let id = try PathID.value(context, "courseId")
            // Shared courses only: the page is a visitor's view.
            _ = try await DownloadRoutes.found {
                try await services.store.acting(as: Caller.visitorName).course(id: id)
            }
            let png = try await ImageRoutes.preview(course: id, services: services)
            var response = ImageRoutes.response(png, type: "image/png")
            // A course may stop being shared: kept an hour, not for good.
            response.headers[.cacheControl] = "public, max-age=3600"
            return response
        }
    }

    /// The page's policy: nothing but what it needs, all from this server. Images may come from
    /// `--public-url`'s origin too, which names them when it is set (API §8).
    static func contentSecurityPolicy(publicURL: String?) -> String {
        var images = "'self'"
        if let publicURL, let origin = origin(of: publicURL) { images += " " + origin }
        return [
            "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src \(images)",
            "connect-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    /// `scheme://host[:port]` of an http or https URL; `nil` for anything else.
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
            host.allSatisfy({ $0.isLetter || $0.isNumber || ".-[]:".contains($0) })
        else { return nil }
        return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
    }

    /// `file`, or 304 when `If-None-Match` names it, with the page's headers either way.
    static func response(_ file: PageAsset, to request: Request, cacheControl: String, policy: String) -> Response {
        var headers: HTTPFields = [
            .eTag: file.eTag, .cacheControl: cacheControl, contentSecurityPolicyField: policy,
            .xContentTypeOptions: "nosniff", referrerPolicyField: "no-referrer",
            permissionsPolicyField: "geolocation=(self), camera=(), microphone=()",
        ]
        if file.isNamed(byIfNoneMatch: request.headers[values: .ifNoneMatch]) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = file.contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: file.body))
    }
}
