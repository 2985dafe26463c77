import Foundation
import RunnectSite
import RunnectStore
import RunnectTestSupport
import Testing

@testable import RunnectServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `GET /` and `GET /page/{name}` over HTTP: the discovery page and its files, public, with a
/// strict Content-Security-Policy, entity tags answered 304, and the caching the page's links
/// allow; and the page's own files, read for what the policy forbids.
@Suite("The discovery page's routes")
struct PageRoutesTests {
    static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// A session without a cache, so that a 304 reaches the test as it was sent.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()

    /// A GET (or another `method`) with no auth headers at all.
    static func get(_ url: URL, method: String = "GET", headers: [String: String] = [:]) async throws -> (
        status: Int, headers: [String: String], body: Data
    ) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields["\(name)".lowercased()] = "\(value)" }
        return (http.statusCode, fields, data)
    }

    static func withServer(publicURL: String? = nil, _ body: @Sendable (URL) async throws -> Void) async throws {
        try await ServerStoreKind.sqlite.withStore { store, folder in
            var configuration = ServerConfiguration(
                tokenSecret: TestServer.secret, imagesFolder: folder.appendingPathComponent("images").path)
            configuration.publicURL = publicURL
            try await TestServer.with(store: store, configuration: configuration) { base in try await body(base) }
        }
    }

    @Test func thePageIsPublicWithAStrictPolicyAndVersionedLinks() async throws {
        try await Self.withServer { base in
            let page = try await Self.get(base)
            #expect(page.status == 200, "no auth headers, and still the page")
            #expect(page.headers["content-type"] == "text/html; charset=utf-8")
            #expect(page.headers["content-security-policy"] == Self.policy)
            #expect(page.headers["x-content-type-options"] == "nosniff")
            #expect(page.headers["referrer-policy"] == "no-referrer")
            #expect(page.headers["cache-control"] == "no-cache")
            #expect(page.headers["etag"] == PageAsset.page.eTag)
            #expect(page.headers["etag"]?.wholeMatch(of: /"[0-9a-f]{32}"/) != nil)
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(html.contains(#"<html lang="ko">"#))
            for (name, file) in PageAsset.files {
                #expect(html.contains("\"page/\(name)?v=\(file.version)\""), "the page links \(name) by its version")
            }
            #expect(Array(page.body) == Array(PageAsset.page.body.readableBytesView))
        }
    }

    @Test(arguments: [
        ("page.js", "text/javascript; charset=utf-8"), ("page.css", "text/css; charset=utf-8"),
        ("icon.svg", "image/svg+xml"),
    ])
    func eachFileIsCachedForGoodOnlyAtItsVersion(name: String, type: String) async throws {
        let file = try #require(PageAsset.files[name])
        try await Self.withServer { base in
            let current = try await Self.get(URL(string: "\(base)/page/\(name)?v=\(file.version)")!)
            #expect(current.status == 200)
            #expect(current.headers["content-type"] == type)
            #expect(current.headers["cache-control"] == "public, max-age=31536000, immutable")
            #expect(current.headers["content-security-policy"] == Self.policy)
            #expect(current.headers["x-content-type-options"] == "nosniff")
            #expect(current.headers["etag"] == file.eTag)
            #expect(Array(current.body) == Array(file.body.readableBytesView))
            for other in ["", "?v=000000000000", "?v=\(file.version)x"] {
                let answer = try await Self.get(URL(string: "\(base)/page/\(name)\(other)")!)
                #expect(answer.status == 200)
                #expect(answer.headers["cache-control"] == "no-cache", "\(name)\(other)")
            }
        }
    }

    @Test func ifNoneMatchWithTheTagIs304AndAnotherTagIsTheFile() async throws {
        try await Self.withServer { base in
            let tag = PageAsset.page.eTag
            for header in [tag, "W/\(tag)", "\"0123\", \(tag)", "*"] {
                let answer = try await Self.get(base, headers: ["If-None-Match": header])
                #expect(answer.status == 304, "If-None-Match: \(header)")
                #expect(answer.body.isEmpty)
                #expect(answer.headers["etag"] == tag)
                #expect(answer.headers["content-security-policy"] == Self.policy)
                #expect(answer.headers["cache-control"] == "no-cache")
            }
            let stale = try await Self.get(base, headers: ["If-None-Match": "\"0123456789abcdef0123456789abcdef\""])
            #expect(stale.status == 200 && !stale.body.isEmpty)

            let script = try #require(PageAsset.files["page.js"])
            let cached = try await Self.get(
                URL(string: "\(base)/page/page.js?v=\(script.version)")!, headers: ["If-None-Match": script.eTag])
            #expect(cached.status == 304 && cached.body.isEmpty)
            #expect(cached.headers["cache-control"] == "public, max-age=31536000, immutable")
        }
    }

    @Test func headAnswersWhatGetWouldWithoutTheBody() async throws {
        try await Self.withServer { base in
            let script = try #require(PageAsset.files["page.js"])
            for url in [base, URL(string: "\(base)/page/page.js?v=\(script.version)")!] {
                let (head, get) = (try await Self.get(url, method: "HEAD"), try await Self.get(url))
                #expect(head.status == 200 && head.body.isEmpty, "\(url)")
                #expect(head.headers["content-length"] == "\(get.body.count)", "\(url)")
                for field in ["etag", "content-type", "content-security-policy", "cache-control"] {
                    #expect(head.headers[field] == get.headers[field], "\(url): \(field)")
                }
            }
            #expect(
                try await Self.get(base, method: "HEAD", headers: ["If-None-Match": PageAsset.page.eTag]).status == 304)
            #expect(try await Self.get(URL(string: "\(base)/page/page.html")!, method: "HEAD").status == 404)
        }
    }

    @Test func anUnknownFileIsA404InTheEnvelope() async throws {
        try await Self.withServer { base in
            for path in ["/page/page.html", "/page/..%2Fopenapi.json", "/page/", "/index.html"] {
                let answer = try await Self.get(URL(string: "\(base)\(path)")!)
                #expect(answer.status == 404, "\(path)")
                let envelope = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
                #expect(envelope?["success"] as? Bool == false, "\(path)")
            }
        }
    }

    @Test func aPublicURLsOriginMayServeImages() async throws {
        try await Self.withServer(publicURL: "https://runs.example.org:8443/club") { base in
            let page = try await Self.get(base)
            #expect(
                page.headers["content-security-policy"]
                    == Self.policy.replacingOccurrences(
                        of: "img-src 'self'", with: "img-src 'self' https://runs.example.org:8443"))
        }
        #expect(PageRoutes.origin(of: "http://[::1]:8080/") == "http://[::1]:8080")
        #expect(PageRoutes.origin(of: "ftp://example.org") == nil)
        #expect(PageRoutes.origin(of: "https://exa'mple.org") == nil)
        #expect(PageRoutes.origin(of: "no url") == nil)
    }

    @Test func ifNoneMatchIsComparedWeaklyAcrossLists() {
        let file = PageAsset(contentType: "text/plain", bytes: Array("x".utf8))
        #expect(file.isNamed(byIfNoneMatch: [file.eTag]))
        #expect(file.isNamed(byIfNoneMatch: ["\"a\"", "W/\(file.eTag)"]))
        #expect(file.isNamed(byIfNoneMatch: ["\"a\" ,\(file.eTag) "]))
        #expect(!file.isNamed(byIfNoneMatch: ["\"a\"", "W/\"b\""]))
        #expect(!file.isNamed(byIfNoneMatch: []))
        #expect(file.version.count == 12)
    }

    /// What the policy forbids is not in the page's own files either: no inline script or style,
    /// no event-handler attributes, no markup made from strings.
    @Test func thePagesFilesNeedNothingThePolicyForbids() throws {
        let html = String(decoding: PackageResources.page_html, as: UTF8.self)
        let scripts = html.matches(of: /<script\b([^>]*)>(.*?)<\/script>/.dotMatchesNewlines())
        #expect(scripts.count == 1)
        for script in scripts {
            #expect(script.output.1.contains("src="), "an inline script")
            #expect(script.output.2.isEmpty)
        }
        #expect(!html.contains("<style"), "an inline stylesheet")
        #expect(html.firstMatch(of: /\sstyle=/) == nil, "a style attribute")
        #expect(html.firstMatch(of: /\son[a-z]+=/) == nil, "an event-handler attribute")
        #expect(
            !html.contains("http://") && !html.contains("https://") && !html.contains("//cdn"), "nothing from elsewhere"
        )

        let script = String(decoding: PackageResources.page_js, as: UTF8.self)
        #expect(script.hasPrefix("\"use strict\";"))
        for forbidden in [
            "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
            "localStorage", "document.cookie", ".style.", "setAttribute(\"style\"", "http://", "https://",
        ] {
            #expect(!script.contains(forbidden), "page.js uses \(forbidden)")
        }
        #expect(script.contains("sessionStorage"))

        let css = String(decoding: PageAsset.stylesheet.body.readableBytesView, as: UTF8.self)
        #expect(css.hasPrefix(String(decoding: DiscoveryStylesheet.bytes, as: UTF8.self)), "runnect index's look first")
        #expect(!css.contains("@import") && !css.contains("url("), "the stylesheet fetches nothing")

        // A few tens of KB, before any compression.
        let total = PageAsset.page.body.readableBytes + PageAsset.files.values.map(\.body.readableBytes).reduce(0, +)
        #expect(total < 64 * 1024, "the page and its files are \(total) bytes")
    }

    @Test(.requires(MapImageSamples.isAvailable, "python3 with pillow (scripts/setup.sh --test)"))
    func aCoursesPreviewIsServedOnceItIsShared() async throws {
        let png = try Data(contentsOf: MapImageSamples.folder.appendingPathComponent("plain.png"))
        try await ServerStoreKind.sqlite.withServer(runners: ["haneul"]) { base, runners, _ in
            let drawn = try await runners[0].drawCourse(
                data: [
                    "path": [["latitude": 37.5, "longitude": 127.0], ["latitude": 37.51, "longitude": 127.01]],
                    "title": "한강 미리보기", "departureAddress": "서울 송파구 잠실동 1",
                ], image: png, imageName: "map.png")
            drawn.expect(http: 201)
            let id = try #require(drawn.data["id"] as? Int)
            let preview = base.appendingPathComponent("page/preview/\(id)")
            #expect(try await Self.get(preview).status == 404, "a private course's preview is not the page's")
            try await runners[0].request(
                "POST", "/api/public-course", json: ["courseId": id, "title": "한강 미리보기", "description": "공유"]
            ).expect(http: 201)
            let shared = try await Self.get(preview)
            #expect(shared.status == 200)
            #expect(shared.headers["content-type"] == "image/png")
            #expect(shared.headers["cache-control"] == "public, max-age=3600")
            #expect(shared.body.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG, not the uploaded map image")
            #expect(shared.body != png)
            #expect(try await Self.get(base.appendingPathComponent("page/preview/abc")).status == 400)
        }
    }
}
