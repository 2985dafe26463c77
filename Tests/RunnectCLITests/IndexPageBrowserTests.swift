import Foundation
import RunnectKit
import RunnectTestSupport
import Testing

/// `index.html` in a real browser: headless Chromium loads the exported page from `file://`,
/// with the query and the sort in the URL's fragment (which the page feeds through the same
/// handler as typing), and the cards it shows are compared with what `runnect search` finds.
/// Screenshots are saved under `.build/artifacts/index-page/`.
@Suite(
    "runnect index: the page in headless Chromium",
    .requires(
        HeadlessChromium.installed != nil,
        "chromium is not installed (scripts/setup.sh --test installs it); the page is not tested in a browser"))
struct IndexPageBrowserTests {
    static let artifacts = PackageFolder.root.appendingPathComponent(".build/artifacts/index-page")

    /// The ids of the cards in the order shown.
    static func cardIDs(_ dom: String) -> [Int64] {
        let pattern = try! NSRegularExpression(pattern: #"<li class="card" data-id="(\d+)""#)
        return pattern.matches(in: dom, range: NSRange(dom.startIndex..., in: dom)).compactMap { match in
            Range(match.range(at: 1), in: dom).flatMap { Int64(dom[$0]) }
        }
    }

    /// `index.html#q=…&sort=…`, the query percent-encoded as a browser would.
    static func pageURL(_ folder: URL, query: String, sort: String) -> URL {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let encoded = query.unicodeScalars.map { scalar -> String in
            if scalar.isASCII, allowed.contains(scalar) { return String(scalar) }
            return String(scalar).utf8.map { String(format: "%%%02X", $0) }.joined()
        }.joined()
        var fragment = "sort=\(sort)"
        if !query.isEmpty { fragment = "q=\(encoded)&" + fragment }
        return URL(
            string: URL(fileURLWithPath: folder.appendingPathComponent("index.html").path).absoluteString + "#"
                + fragment)!
    }

    @Test("cards shown for a query match runnect search (초성, mixed, case, NFD, conjoining jamo), in every order")
    func searchMatchesTheStore() throws {
        let chromium = try #require(HeadlessChromium.installed)
        let scratch = try IndexScratch()
        let site = scratch.folder.appendingPathComponent("site")
        let export = try scratch.run(["index", site.path])
        #expect(export.status == 0, "\(export.stderr)")

        let decomposed = "한강".decomposedStringWithCanonicalMapping
        #expect(decomposed.unicodeScalars.count == 6)
        let cases: [(String, String)] = [
            ("ㅎㄱ", "scrap"), ("한ㄱ", "scrap"), ("HANGANG", "scrap"), ("잠실 ㅅㅊ", "scrap"), ("script", "date"),
            ("\u{1112}\u{1100}", "scrap"), (decomposed, "date"), ("러닝 ㅇㄹㅍ", "scrap"), ("ㅅ", "distance"),
            ("ㅅ", "date"), ("zzz", "date"), ("ΟΔΟΣ", "date"), ("οδοσ", "date"), ("", "scrap"), ("", "distance"),
        ]
        for (query, sort) in cases {
            let expected = try scratch.searchIDs(query, sort: sort)
            let dom = try chromium.dumpDOM(Self.pageURL(site, query: query, sort: sort))
            #expect(
                dom.contains("<li class=\"card\"") || expected.isEmpty, "no card at all for \(query): did the page run?"
            )
            #expect(Self.cardIDs(dom) == expected, "query \"\(query)\" sorted by \(sort)")
        }
        // The queries found something, so the comparison meant something.
        #expect(try scratch.searchIDs("ㅎㄱ", sort: "scrap") == [scratch.ids["banpo"]!, scratch.ids["yeouido"]!])
        #expect(try scratch.searchIDs("잠실 ㅅㅊ", sort: "scrap") == [scratch.ids["seokchon"]!])
    }

    @Test(
        "served over HTTP by a static server (python3 -m http.server), the page shows the same cards",
        .requires(
            StaticServer.python != nil, "python3 is not in /usr/bin or /usr/local/bin: the page is not tested over HTTP"
        ))
    func staticServer() throws {
        let chromium = try #require(HeadlessChromium.installed)
        let scratch = try IndexScratch()
        let site = scratch.folder.appendingPathComponent("site")
        #expect(try scratch.run(["index", site.path]).status == 0)
        let server = try StaticServer(folder: site)
        defer { server.stop() }
        let url = server.url("index.html#q=%E3%85%8E%E3%84%B1&sort=scrap")
        let dom = try chromium.dumpDOM(url)
        #expect(Self.cardIDs(dom) == (try scratch.searchIDs("ㅎㄱ", sort: "scrap")))
        #expect(Self.cardIDs(dom).count == 2)
    }

    @Test("course text shows as text: a <script> title runs nothing and is not an element; screenshots saved")
    func escapingAndScreenshots() throws {
        let chromium = try #require(HeadlessChromium.installed)
        let scratch = try IndexScratch()
        let site = scratch.folder.appendingPathComponent("site")
        #expect(try scratch.run(["index", site.path, "--all"]).status == 0)

        let dom = try chromium.dumpDOM(Self.pageURL(site, query: "", sort: "date"))
        #expect(Self.cardIDs(dom).count == IndexScratch.specs.count)
        #expect(dom.contains("<title>Runnect · 코스 둘러보기</title>"), "the page title changed: a course's script ran")
        #expect(dom.contains(#"<h2 class="title">&lt;script&gt;document.title='pwned'&lt;/script&gt;</h2>"#))
        #expect(!dom.contains("src=\"x\""), "a course's <img> became an element")
        #expect(dom.components(separatedBy: "<script").count - 1 == 2, "only the page's own two scripts")
        #expect(dom.contains("비공개"), "the private course is marked")
        #expect(dom.contains("<b>반포한강공원</b>"))

        for (name, size) in [("desktop", (1280, 1000)), ("mobile", (390, 1500))] {
            let file = Self.artifacts.appendingPathComponent("\(name).png")
            try chromium.screenshot(Self.pageURL(site, query: "", sort: "scrap"), to: file, windowSize: size)
            let bytes = try Data(contentsOf: file)
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) && bytes.count > 10_000)
            print("index page screenshot (\(name)): \(file.path)")
        }
        let searched = Self.artifacts.appendingPathComponent("search-ㅎㄱ.png")
        try chromium.screenshot(Self.pageURL(site, query: "ㅎㄱ", sort: "scrap"), to: searched, windowSize: (1280, 800))
        print("index page screenshot (search ㅎㄱ): \(searched.path)")
    }

    @Test(
        "clicking a card's GPX and FIT links downloads files that read back as the course (file:// and HTTP)",
        .requires(
            ExternalTool.path("python3") != nil, "python3 is missing: scripts/chromium_downloads.py drives the clicks"))
    func downloads() throws {
        let chromium = try #require(HeadlessChromium.installed)
        let scratch = try IndexScratch()
        let site = scratch.folder.appendingPathComponent("site")
        #expect(try scratch.run(["index", site.path]).status == 0)
        let server = try StaticServer(folder: site)
        defer { server.stop() }
        for (key, page) in [
            ("banpo", Self.pageURL(site, query: "", sort: "date")), ("seokchon", server.url("index.html")),
        ] {
            let id = try #require(scratch.ids[key])
            let downloads = scratch.folder.appendingPathComponent("downloads-\(key)")
            try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
            let selectors = ["gpx", "fit"].map { "li.card[data-id=\"\(id)\"] a.download[href$=\".\($0)\"]" }
            let clicked = try ToolRun.run(
                [
                    "python3", PackageFolder.root.appendingPathComponent("scripts/chromium_downloads.py").path,
                    chromium.executable, page.absoluteString, downloads.path,
                ] + selectors)
            #expect(clicked.status == 0, "\(clicked.stderr)")
            let files = try clicked.stdout.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])["file"]
            }
            #expect(files.map { $0.map { URL(fileURLWithPath: $0).lastPathComponent } } == ["\(id).gpx", "\(id).fit"])

            // The course as the store has it, through the CLI: its taps.
            let exported = try scratch.run(["export", "gpx", "\(id)"])
            let taps = try GPXReader().read(from: MemoryByteStream(exported.stdout)).courseSegments.joined()
                .map(\.coordinate)
            #expect(taps.count >= 4)
            let gpx = try ActivityReader.read(path: try #require(files.first ?? nil))
            #expect(gpx.courseSegments.joined().map(\.coordinate) == taps, "the downloaded GPX is the course")
            #expect(gpx.metadata.name == IndexScratch.specs.first { $0.key == key }?.title)
            let fit = try FITReader().decode(from: FileByteStream(path: try #require(files.last ?? nil)))
            let points = Array(fit.activity.courseSegments.joined())
            #expect(points.count == taps.count && fit.activity.warnings.isEmpty, "\(fit.activity.warnings)")
            for (back, tap) in zip(points, taps) {
                #expect(abs(back.latitude - tap.latitude) <= 90 / 2_147_483_648.0)
                #expect(abs(back.longitude - tap.longitude) <= 90 / 2_147_483_648.0)
            }
        }
    }
}
