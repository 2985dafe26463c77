import Foundation
import RunnectKit
import RunnectStore
import RunnectTestSupport
import Testing

@testable import RunnectSite

@Suite("Discovery index export over a real database")
struct DiscoveryIndexExporterTests {
    /// A store with three shared courses (Korean, English, one whose title is markup) and one
    /// private course; course 1 is scrapped twice, course 2 once.
    struct Fixture {
        let store: CourseStore
        let hangang: Course
        let english: Course
        let markup: Course
        let privateCourse: Course

        static let markupTitle = "</script><script>alert(1)</script>"

        init(path: String) async throws {
            store = try await CourseStore(path: path, user: "minji")
            let banpo = try Departure(address: "서울 서초구 반포동 신반포로11길 40", name: "반포한강공원")
            hangang = try await Self.shared(
                store, seed: 1, title: "반포 한강 야간 러닝", description: "무지개분수까지 왕복",
                departure: banpo)
            english = try await Self.shared(
                store, seed: 2, title: "Hangang Night Run", description: "Flat and fast.",
                departure: try Departure(address: "서울 영등포구 여의도동 여의동로 330"))
            markup = try await Self.shared(
                store, seed: 3, title: Self.markupTitle,
                description: "<img src=x onerror=\"alert(2)\"> & \"quotes\"", departure: nil)
            privateCourse = try await store.draw(points: taps(seed: 4), title: "남산 비공개 코스")
            for user in ["jisoo", "haneul"] {
                _ = try await CourseStore(path: path, user: user).scrap(id: hangang.id)
            }
            _ = try await CourseStore(path: path, user: "jisoo").scrap(id: english.id)
        }

        static func shared(
            _ store: CourseStore, seed: Int, title: String, description: String,
            departure: Departure?
        ) async throws -> Course {
            let course = try await store.draw(points: taps(seed: seed, count: 6), title: title, departure: departure)
            return try await store.upload(id: course.id, title: title, description: description)
        }

        var sharedIDs: [Int64] { [markup.id, english.id, hangang.id] }  // newest first
    }

    /// A fixture store in a temporary folder, and the (not yet made) site folder in it.
    func withFixture(_ body: (Fixture, URL, URL) async throws -> Void) async throws {
        try await withTemporaryDirectory { folder in
            let fixture = try await Fixture(path: folder.appendingPathComponent("courses.sqlite").path)
            try await body(fixture, folder, folder.appendingPathComponent("site"))
        }
    }

    /// The relative paths of the regular files under `folder`, sorted.
    static func files(in folder: URL) throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var found: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(
                atPath: folder.appendingPathComponent(relative).path, isDirectory: &isDirectory)
            if !isDirectory.boolValue { found.append(relative) }
        }
        return found.sorted()
    }

    static func expectedFiles(ids: [Int64]) -> [String] {
        (["index.html", "courses.json", "courses.js", "courses.geojson", ".runnect-index.json"]
            + ids.flatMap { id in ["svg", "geojson", "gpx", "fit"].map { "courses/\(id).\($0)" } }).sorted()
    }

    static func json(_ url: URL) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    @Test(
        "writes the page, the lists and an SVG, a GeoJSON, a GPX and a FIT per shared course; courses.json holds the cards' data"
    )
    func filesAndListing() async throws {
        try await withFixture { fixture, folder, out in
            let summary = try await DiscoveryIndexExporter(store: fixture.store).export(to: out.path)
            #expect(summary.courses == 3 && summary.scope == "shared")
            #expect(summary.filesWritten == 4 + 4 * 3 && summary.filesUnchanged == 0 && summary.filesRemoved == 0)
            #expect(try Self.files(in: out) == Self.expectedFiles(ids: fixture.sharedIDs))

            let listing = try Self.json(out.appendingPathComponent("courses.json"))
            #expect(listing["scope"] as? String == "shared")
            let courses = try #require(listing["courses"] as? [[String: Any]])
            #expect(courses.compactMap { ($0["id"] as? NSNumber)?.int64Value } == fixture.sharedIDs)
            let first = try #require(courses.last)  // the Korean course, oldest
            let hangang = try await fixture.store.course(id: fixture.hangang.id)
            #expect(first["title"] as? String == "반포 한강 야간 러닝")
            #expect(first["address"] as? String == "서울 서초구 반포동 신반포로11길 40")
            #expect(first["departure_name"] as? String == "반포한강공원")
            #expect(first["scrap_count"] as? Int == 2 && hangang.scrapCount == 2)
            #expect((first["distance_m"] as? Double).map { abs($0 - hangang.stats.distanceMeters) < 0.0005 } == true)
            #expect(first["avg_pace_s_per_km"] is NSNull, "a drawn course has no time, so no pace")
            #expect(first["preview"] as? String == "courses/\(hangang.id).svg")
            #expect(first["geojson"] as? String == "courses/\(hangang.id).geojson")
            #expect(first["gpx"] as? String == "courses/\(hangang.id).gpx")
            #expect(first["fit"] as? String == "courses/\(hangang.id).fit")
            #expect(first["search"] as? String == "반포 한강 야간 러닝\n무지개분수까지 왕복\n서울\n서초구\n반포동\n신반포로11길 40\n반포한강공원")
            let english = try #require(courses.dropFirst().first)
            #expect(english["search"] as? String == "hangang night run\nflat and fast.\n서울\n영등포구\n여의도동\n여의동로 330")
            #expect(english["departure_name"] is NSNull)

            // courses.js is the same data as a script.
            let script = try String(contentsOf: out.appendingPathComponent("courses.js"), encoding: .utf8)
            #expect(script.hasPrefix("window.RUNNECT_INDEX = {") && script.hasSuffix("};\n"))

            // One feature per course in courses.geojson, with the taps as [lon, lat].
            let collection = try Self.json(out.appendingPathComponent("courses.geojson"))
            #expect(collection["type"] as? String == "FeatureCollection")
            let features = try #require(collection["features"] as? [[String: Any]])
            #expect(features.count == 3)
            #expect(features.compactMap { ($0["id"] as? NSNumber)?.int64Value } == fixture.sharedIDs)
            let markupProperties = features.first?["properties"] as? [String: Any]
            #expect(markupProperties?["title"] as? String == Fixture.markupTitle)
            #expect(markupProperties?["preview"] as? String == "courses/\(fixture.markup.id).svg")
            #expect(markupProperties?.keys.contains("search") == false)
            let taps = taps(seed: 1, count: 6)
            let perCourse = try Self.json(out.appendingPathComponent("courses/\(hangang.id).geojson"))
            let positions = try #require(Self.positions(perCourse))
            #expect(positions.count == taps.count)
            #expect((perCourse["properties"] as? [String: Any])?["scrap_count"] as? Int == 2)
            #expect((perCourse["id"] as? NSNumber)?.int64Value == hangang.id)
            #expect(
                positions.first.map { abs($0[0] - taps[0].longitude) < 1e-9 && abs($0[1] - taps[0].latitude) < 1e-9 }
                    == true)
            let svg = try String(contentsOf: out.appendingPathComponent("courses/\(hangang.id).svg"), encoding: .utf8)
            #expect(svg.contains("<svg") && svg.contains("</svg>"))
        }
    }

    /// Every position of the first LineString or MultiLineString in a GeoJSON object.
    static func positions(_ object: [String: Any]) -> [[Double]]? {
        if let type = object["type"] as? String {
            switch type {
            case "LineString": return object["coordinates"] as? [[Double]]
            case "MultiLineString": return (object["coordinates"] as? [[[Double]]])?.flatMap { $0 }
            case "Feature": return (object["geometry"] as? [String: Any]).flatMap(positions)
            case "FeatureCollection":
                for feature in object["features"] as? [[String: Any]] ?? [] {
                    if let found = positions(feature) { return found }
                }
            default: break
            }
        }
        return nil
    }

    @Test("re-running leaves unchanged files alone, removes an unshared course's files and never anything else")
    func rerun() async throws {
        try await withFixture { fixture, folder, out in
            let exporter = DiscoveryIndexExporter(store: fixture.store)
            _ = try await exporter.export(to: out.path)
            let svg = out.appendingPathComponent("courses/\(fixture.english.id).svg")
            let stamp = try FileManager.default.attributesOfItem(atPath: svg.path)[.modificationDate] as? Date

            let again = try await exporter.export(to: out.path)
            #expect(again.filesWritten == 0 && again.filesUnchanged == 16 && again.filesRemoved == 0)
            #expect(try FileManager.default.attributesOfItem(atPath: svg.path)[.modificationDate] as? Date == stamp)

            // The user's own files in the folder, some named like exported or temporary files.
            let mine = [
                "README.txt", "courses/notes.txt", "courses/999.svg", "courses/\(fixture.english.id).png",
                ".notes.txt.12.tmp", "courses/.999.svg.x.tmp",
            ]
            for name in mine { try Data("mine".utf8).write(to: out.appendingPathComponent(name)) }
            // What an export killed midway leaves behind: removed by the next one.
            let stale = [".courses.json.4242.tmp", "courses/.\(fixture.english.id).svg.4242.tmp"]
            for name in stale { try Data("half".utf8).write(to: out.appendingPathComponent(name)) }

            _ = try await fixture.store.unupload(id: fixture.english.id)
            let after = try await exporter.export(to: out.path)
            #expect(after.courses == 2 && after.filesRemoved == 4)
            let remaining = [fixture.markup.id, fixture.hangang.id]
            #expect(try Self.files(in: out) == (Self.expectedFiles(ids: remaining) + mine).sorted())
            let listing = try Self.json(out.appendingPathComponent("courses.json"))
            let ids = (listing["courses"] as? [[String: Any]])?.compactMap { ($0["id"] as? NSNumber)?.int64Value }
            #expect(ids == remaining)
            // courses.json, courses.js and courses.geojson changed; the page did not.
            #expect(after.filesWritten == 3 && after.filesUnchanged == 9)
        }
    }

    @Test("a file in the way that the exporter did not write stops it before anything is written")
    func foreignFile() async throws {
        try await withFixture { fixture, folder, out in
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            let page = out.appendingPathComponent("index.html")
            try Data("<p>my own page</p>".utf8).write(to: page)
            await #expect(throws: IndexExportError.foreignFile(path: page.path)) {
                try await DiscoveryIndexExporter(store: fixture.store).export(to: out.path)
            }
            #expect(try String(contentsOf: page, encoding: .utf8) == "<p>my own page</p>")
            #expect(try Self.files(in: out) == ["index.html"])

            let file = folder.appendingPathComponent("a-file")
            try Data().write(to: file)
            await #expect(throws: IndexExportError.notAFolder(path: file.path)) {
                try await DiscoveryIndexExporter(store: fixture.store).export(to: file.path)
            }
        }
    }

    @Test(
        "a linked courses folder, or a link or FIFO put in place of an owned file, stops the export: nothing written through it"
    )
    func linksAndSpecialFiles() async throws {
        try await withFixture { fixture, folder, out in
            let elsewhere = folder.appendingPathComponent("elsewhere")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
            let courses = out.appendingPathComponent("courses")
            try FileManager.default.createSymbolicLink(atPath: courses.path, withDestinationPath: elsewhere.path)
            await #expect(throws: IndexExportError.foreignFile(path: courses.path)) {
                try await DiscoveryIndexExporter(store: fixture.store).export(to: out.path)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
            #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["courses"])

            // A real export, then an owned file replaced by a FIFO and another by a link.
            try FileManager.default.removeItem(at: courses)
            _ = try await DiscoveryIndexExporter(store: fixture.store).export(to: out.path)
            let preview = out.appendingPathComponent(DiscoveryIndexExporter.previewName(id: fixture.hangang.id))
            try FileManager.default.removeItem(at: preview)
            #expect(mkfifo(preview.path, 0o644) == 0)
            await #expect(throws: IndexExportError.foreignFile(path: preview.path)) {
                try await DiscoveryIndexExporter(store: fixture.store).export(to: out.path)
            }
            try FileManager.default.removeItem(at: preview)
            let target = elsewhere.appendingPathComponent("mine.txt")
            try Data("mine".utf8).write(to: target)
            try FileManager.default.createSymbolicLink(atPath: preview.path, withDestinationPath: target.path)
            await #expect(throws: IndexExportError.foreignFile(path: preview.path)) {
                try await DiscoveryIndexExporter(store: fixture.store).export(to: out.path)
            }
            #expect(try String(contentsOf: target, encoding: .utf8) == "mine")
        }
    }

    @Test("a manifest naming files outside the exporter's own names cannot make it delete them")
    func manifestIsChecked() async throws {
        try await withFixture { fixture, folder, out in
            _ = try await DiscoveryIndexExporter(store: fixture.store).export(to: out.path)
            let victim = folder.appendingPathComponent("victim.txt")
            try Data("keep me".utf8).write(to: victim)
            try Data("keep me".utf8).write(to: out.appendingPathComponent("notes.txt"))
            let manifest = out.appendingPathComponent(".runnect-index.json")
            // The genuine list plus names outside the exporter's own.
            var forged = try Self.json(manifest)
            forged["files"] =
                (forged["files"] as? [String] ?? [])
                + [
                    "../victim.txt", "notes.txt", "courses/../../victim.txt", "/etc/hostname",
                    "courses/12.svg/../../../victim.txt",
                ]
            try JSONSerialization.data(withJSONObject: forged).write(to: manifest)
            _ = try await DiscoveryIndexExporter(store: fixture.store).export(to: out.path)
            #expect(FileManager.default.fileExists(atPath: victim.path))
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("notes.txt").path))

            try Data("not json".utf8).write(to: manifest)
            await #expect(throws: IndexExportError.damagedManifest(path: manifest.path)) {
                try await DiscoveryIndexExporter(store: fixture.store).export(to: out.path)
            }
        }
    }

    @Test("course text is data: markup in titles stays text in courses.json and never appears as '<' in courses.js")
    func escaping() async throws {
        try await withFixture { fixture, folder, out in
            _ = try await DiscoveryIndexExporter(store: fixture.store).export(to: out.path)
            let script = try String(contentsOf: out.appendingPathComponent("courses.js"), encoding: .utf8)
            #expect(!script.contains("<"), "courses.js holds a raw '<'")
            #expect(script.contains(#"\u003c/script>\u003cscript>alert(1)\u003c/script>"#))
            // The script's JSON reads back to the exact title.
            let json = script.dropFirst("window.RUNNECT_INDEX = ".count).dropLast(2)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let titles = (object["courses"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
            #expect(titles?.first == Fixture.markupTitle)
            // The page itself holds no course text and builds cards with textContent only.
            let page = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
            #expect(page == DiscoveryIndexPage.html)
            #expect(
                !page.contains("innerHTML") && !page.contains("insertAdjacentHTML") && !page.contains("document.write"))
        }
    }

    @Test("--all exports private courses too")
    func allCourses() async throws {
        try await withFixture { fixture, folder, out in
            let summary = try await DiscoveryIndexExporter(store: fixture.store, scope: .all).export(to: out.path)
            #expect(summary.courses == 4 && summary.scope == "all")
            let ids = [fixture.privateCourse.id] + fixture.sharedIDs
            #expect(try Self.files(in: out) == Self.expectedFiles(ids: ids))
            let listing = try Self.json(out.appendingPathComponent("courses.json"))
            let courses = try #require(listing["courses"] as? [[String: Any]])
            #expect(courses.first?["is_uploaded"] as? Bool == false)
            #expect(courses.first?["title"] as? String == "남산 비공개 코스")

            // Back to shared only: the private course's files go.
            let shared = try await DiscoveryIndexExporter(store: fixture.store).export(to: out.path)
            #expect(shared.filesRemoved == 4)
            #expect(try Self.files(in: out) == Self.expectedFiles(ids: fixture.sharedIDs))
        }
    }

    @Test("an empty store gives a page with no course, and files are readable by others (0644 less the umask)")
    func emptyStore() async throws {
        try await withTemporaryStore { store, path in
            let out = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("site")
            let summary = try await DiscoveryIndexExporter(store: store).export(to: out.path)
            #expect(summary.courses == 0)
            let collection = try Self.json(out.appendingPathComponent("courses.geojson"))
            #expect((collection["features"] as? [Any])?.isEmpty == true)
            let mode =
                try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent("index.html").path)[
                    .posixPermissions] as? Int
            // The umask, read without changing it (tests run in parallel).
            let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
            let mask = line.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) } ?? 0o022
            #expect(mode == 0o644 & ~mask)
        }
    }
}
