import Foundation
import RunnectTestSupport
import Testing

@testable import RunnectSite

/// The page is made of the target's resource files (`Resources/index.html`, `index.css`,
/// `index.js`), put together into one file with its style and script inline.
@Suite("Discovery page: one file from the resources")
struct DiscoveryIndexPageTests {
    /// A resource file as it is in the source tree (the page holds the copy compiled into the code).
    static func resource(_ name: String) throws -> String {
        let url = PackageFolder.url("Sources/RunnectSite/Resources/\(name)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test("the stylesheet and the script are inline, each once, and the page links nothing of its own but courses.js")
    func inline() throws {
        let page = DiscoveryIndexPage.html
        let css = try Self.resource("index.css")
        let script = try Self.resource("index.js")
        #expect(page.components(separatedBy: "<style>\n" + css + "</style>\n").count == 2)
        #expect(page.components(separatedBy: "<script>\n" + script + "</script>\n").count == 2)
        #expect(!page.contains("index.css") && !page.contains("index.js"))
        #expect(page.contains(#"<script src="\#(DiscoveryIndexPage.dataScript)"></script>"#))
        #expect(script.contains("window.\(DiscoveryIndexPage.dataGlobal)"))
        #expect(page.hasPrefix("<!doctype html>\n") && page.hasSuffix("</html>\n"))
    }
}
