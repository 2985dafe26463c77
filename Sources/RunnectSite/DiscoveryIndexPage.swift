import Foundation

/// The discovery page, `index.html`: one static file with its CSS and script inline, no network.
///
/// The page reads its courses from `courses.js` (`window.RUNNECT_INDEX = {…}`), loaded with a
/// `<script src>`, which works from `file://` as well as from any static server (a `fetch` of
/// `courses.json` does not work from `file://` in Chromium). It builds every card with
/// `textContent` and DOM properties, never `innerHTML`, so course text is always text.
///
/// Search follows `runnect search` rule for rule (RunnectStore's `KoreanText`): the query is normalised
/// as `KoreanText.normalize(_:)` does (NFC, scalar-wise lowercase, conjoining initials to
/// compatibility jamo, NFC), split on the same white space, every word must occur in the
/// course's search key (its normalised title, description and departure parts, precomputed by
/// the exporter with the Swift code), where an initial consonant in the query matches a syllable
/// starting with it. The query and the sort live in the URL's fragment (`#q=ㅎㄱ&sort=scrap`) and
/// go through the same handler as typing.
enum DiscoveryIndexPage {
    /// The file the page loads its data from.
    static let dataScript = "courses.js"
    /// The global the data script sets.
    static let dataGlobal = "RUNNECT_INDEX"

    /// The page's HTML: `Resources/index.html` with `index.css` and `index.js` put inline (the
    /// page is one file, so a browser opens it from `file://` with nothing beside it but its
    /// data). It does not depend on the courses, so re-exports leave it unchanged.
    ///
    /// The three files are the package's resources (``Bundle/module``): `index.html` links the
    /// other two, so the folder opens as a page while they are being edited.
    static let html: String = {
        var page = resource("index.html")
        inline(&page, link: #"<link rel="stylesheet" href="index.css">"#, element: "style", resource("index.css"))
        inline(&page, link: #"<script src="index.js"></script>"#, element: "script", resource("index.js"))
        return page
    }()

    /// The text of one of the page's resource files.
    private static func resource(_ name: String) -> String {
        let file = name as NSString
        guard let url = Bundle.module.url(forResource: file.deletingPathExtension, withExtension: file.pathExtension,
                                          subdirectory: "Resources"),
              let text = try? String(contentsOf: url, encoding: .utf8)
        else {
            preconditionFailure("RunnectSite's resource \(name) is missing from \(Bundle.module.bundlePath)")
        }
        return text
    }

    /// Replaces the line `link` of `page` by `<element>`, `text` and `</element>`.
    private static func inline(_ page: inout String, link: String, element: String, _ text: String) {
        let line = link + "\n"
        guard let range = page.range(of: line) else {
            preconditionFailure("RunnectSite's index.html has no line \(link)")
        }
        page.replaceSubrange(range, with: "<\(element)>\n" + text + "</\(element)>\n")
    }
}
