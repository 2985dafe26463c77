import Foundation
import NIOCore
import RunnectSite

/// One file of the discovery page that `runnect serve` answers at `/` (``PageRoutes``), as built
/// in: its bytes, its content type and its entity tag, a digest of the bytes, so that the tag
/// changes exactly when the file does.
struct PageAsset: Sendable {
    let contentType: String
    let body: ByteBuffer
    /// The strong entity tag, quoted: the first 32 hex digits of the bytes' SHA-256.
    let eTag: String

    init(contentType: String, bytes: [UInt8]) {
        self.contentType = contentType
        self.body = ByteBuffer(bytes: bytes)
        self.eTag = EntityTag.of(bytes)
    }

    /// What the page's links carry as `?v=`: 12 digits of the tag. A file asked for with its
    /// current version can be cached for good; the page itself is revalidated on each visit.
    var version: String { String(eTag.dropFirst().prefix(12)) }

    /// Whether an `If-None-Match` header's values name this file (``EntityTag/isNamed(_:byIfNoneMatch:)``).
    func isNamed(byIfNoneMatch values: [String]) -> Bool {
        EntityTag.isNamed(eTag, byIfNoneMatch: values)
    }

    /// `page.js`: the page's one script.
    static let script = PageAsset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.page_js)

    /// `page.css`: the discovery stylesheet `runnect index` uses too (`RunnectSite`), then the
    /// served page's own rules.
    static let stylesheet = PageAsset(
        contentType: "text/css; charset=utf-8",
        bytes: DiscoveryStylesheet.bytes + Array("\n".utf8) + PackageResources.page_css)

    /// `icon.svg`: the page's icon.
    static let icon = PageAsset(contentType: "image/svg+xml", bytes: PackageResources.page_icon_svg)

    /// The files under `/page/`, by name.
    static let files: [String: PageAsset] = ["page.js": script, "page.css": stylesheet, "icon.svg": icon]

    /// The page: `page.html`, with each link to a file of ``files`` carrying its ``version``.
    static let page: PageAsset = {
        var html = String(decoding: PackageResources.page_html, as: UTF8.self)
        for (name, file) in files.sorted(by: { $0.key < $1.key }) {
            let link = "\"page/\(name)\""
            precondition(html.contains(link), "RunnectServer's page.html does not link \(link)")
            html = html.replacingOccurrences(of: link, with: "\"page/\(name)?v=\(file.version)\"")
        }
        return PageAsset(contentType: "text/html; charset=utf-8", bytes: Array(html.utf8))
    }()
}
