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
    /// The three files are the package's resources, compiled into the code (SwiftPM's
    /// `embedInCode`, so no bundle has to be found at run time): `index.html` links the other
    /// two, so the folder opens as a page while they are being edited.
    static let html: String = {
        var page = String(decoding: PackageResources.index_html, as: UTF8.self)
        inline(
            &page, link: #"<link rel="stylesheet" href="index.css">"#, element: "style",
            String(decoding: PackageResources.index_css, as: UTF8.self))
        inline(
            &page, link: #"<script src="index.js"></script>"#, element: "script",
            String(decoding: PackageResources.index_js, as: UTF8.self))
        return page
    }()

    /// Replaces the line `link` of `page` by `<element>`, `text` and `</element>`.
    private static func inline(_ page: inout String, link: String, element: String, _ text: String) {
        let line = link + "\n"
        guard let range = page.range(of: line) else {
            preconditionFailure("RunnectSite's index.html has no line \(link)")
        }
        page.replaceSubrange(range, with: "<\(element)>\n" + text + "</\(element)>\n")
    }
}
